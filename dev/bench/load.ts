/**
 * One measured run: autocannon against one server, each request at a random cursor of the
 * list and with the next key of the rotation. The warm-up is excluded; latencies are kept
 * at full resolution (autocannon's histogram rounds to whole milliseconds) and every
 * answer that is not 2xx is counted.
 */
import autocannon, { type AutocannonRequest } from 'autocannon';
import { eventLoopCpuSeconds, machineBusySeconds, treeCpuSeconds } from './machine.ts';

/** How the load is applied. */
export interface LoadSettings {
  connections: number;
  durationS: number;
  warmupS: number;
  pipelining: number;
}

/** What one run measured. */
export interface RunFigures {
  requests: number;
  /** Mean of the per-second request counts (autocannon's "Req/Sec Avg"). */
  reqPerSec: number;
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  bytesPerSec: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** CPU the server process used during the measured part, in % of one core (null without /proc). */
  serverCpuPct: number | null;
  /** CPU the database server (PostgreSQL's processes) used, in % of one core; null for SQLite, inside the server. */
  databaseCpuPct: number | null;
  /** CPU the load generator (this process) used, in % of one core. */
  loadCpuPct: number;
  /** CPU used meanwhile by anything else on the machine, in % of one core (null without /proc); high means a disturbed run. */
  otherCpuPct: number | null;
  /**
   * CPU µs per answered request (issue 42): of the server (its process with all its threads,
   * and its children: a cluster's workers, a mock's Prism), of its event loops alone (the main
   * threads), and of the database server (PostgreSQL's processes, ended backends counted; null
   * on SQLite, which runs inside the server). Null without /proc. Absent from runs made before
   * it was measured.
   */
  cpuUs?: CpuPerRequest;
}

/** CPU µs per answered request, by where it was spent. */
export interface CpuPerRequest {
  process: number | null;
  eventLoop: number | null;
  database: number | null;
}

/** The CPU µs a request that the targets compare: the server's and the database's together; null without /proc (or for a run made before it was measured). */
export function cpuTotal(cpu: CpuPerRequest | undefined): number | null {
  const process = cpu?.process ?? null;
  return process === null ? null : Math.round((process + (cpu?.database ?? 0)) * 10) / 10;
}

const percentile = (sorted: Float64Array, p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * Runs the load against `url + path` with `cursor=<random of cursors>` and rotating
 * `X-Api-Key`s (none when `keys` is empty). `databasePid` is a database server's own process
 * (PostgreSQL's postmaster), whose CPU is the server's work, not other work on the machine.
 */
export async function measure(target: { url: string; pid: number; databasePid?: number | null }, path: string, cursors: readonly string[], keys: readonly string[], settings: LoadSettings): Promise<RunFigures> {
  let sent = 0;
  const setupRequest = (request: AutocannonRequest): AutocannonRequest => {
    const cursor = cursors[Math.floor(Math.random() * cursors.length)]!;
    request.path = `${path}&cursor=${cursor}`;
    if (keys.length > 0) request.headers = { ...request.headers, 'x-api-key': keys[sent++ % keys.length]! };
    return request;
  };
  const instance = autocannon({
    url: target.url,
    connections: settings.connections,
    duration: settings.durationS,
    pipelining: settings.pipelining,
    requests: [{ method: 'GET', setupRequest }],
    ...(settings.warmupS > 0 ? { warmup: { connections: settings.connections, duration: settings.warmupS } } : {}),
  });

  const latencies: number[] = [];
  let cpuAtStart: number | null = null;
  let eventLoopAtStart: number | null = null;
  let databaseAtStart: number | null = null;
  const databaseCpu = () => (target.databasePid == null ? null : treeCpuSeconds(target.databasePid));
  let machineAtStart: number | null = null;
  let loadAtStart = process.cpuUsage();
  let startedAt = 0;
  instance.on('start', () => {
    cpuAtStart = treeCpuSeconds(target.pid);
    eventLoopAtStart = eventLoopCpuSeconds(target.pid);
    databaseAtStart = databaseCpu();
    machineAtStart = machineBusySeconds();
    loadAtStart = process.cpuUsage();
    startedAt = performance.now();
  });
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
  });
  const result = await instance;
  const elapsedS = (performance.now() - startedAt) / 1000;
  const cpuAtEnd = treeCpuSeconds(target.pid);
  const eventLoopAtEnd = eventLoopCpuSeconds(target.pid);
  const databaseAtEnd = databaseCpu();
  const machineAtEnd = machineBusySeconds();
  const load = process.cpuUsage(loadAtStart);
  const serverS = cpuAtStart === null || cpuAtEnd === null ? null : cpuAtEnd - cpuAtStart;
  const loadS = (load.user + load.system) / 1e6;
  const databaseS = databaseAtStart === null || databaseAtEnd === null ? null : databaseAtEnd - databaseAtStart;
  const otherS = serverS === null || machineAtStart === null || machineAtEnd === null ? null : Math.max(0, machineAtEnd - machineAtStart - serverS - (databaseS ?? 0) - loadS);

  const requests = result.requests.total;
  const perRequest = (seconds: number | null) => (seconds === null || requests === 0 ? null : round((seconds * 1e6) / requests, 1));
  const eventLoopS = eventLoopAtStart === null || eventLoopAtEnd === null ? null : eventLoopAtEnd - eventLoopAtStart;
  const sorted = Float64Array.from(latencies).sort();
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, Number(count)]));
  return {
    requests,
    reqPerSec: round(result.requests.average, 1),
    latencyMs: {
      mean: round(latencies.reduce((sum, value) => sum + value, 0) / latencies.length, 3),
      p50: round(percentile(sorted, 50), 3),
      p90: round(percentile(sorted, 90), 3),
      p99: round(percentile(sorted, 99), 3),
      max: round(sorted[sorted.length - 1] ?? NaN, 3),
    },
    bytesPerSec: Math.round(result.throughput.average),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    serverCpuPct: serverS === null ? null : round((serverS / elapsedS) * 100, 1),
    databaseCpuPct: databaseS === null ? null : round((databaseS / elapsedS) * 100, 1),
    loadCpuPct: round((loadS / elapsedS) * 100, 1),
    otherCpuPct: otherS === null ? null : round((otherS / elapsedS) * 100, 1),
    cpuUs: { process: perRequest(serverS), eventLoop: perRequest(eventLoopS), database: perRequest(databaseS) },
  };
}
