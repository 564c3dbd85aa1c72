/**
 * The fuzz campaign against the reference sandbox: a sandbox in-process on 127.0.0.1, seeded
 * tenants and keys, `cases` generated requests (conformance/fuzz) sent over fetch and raw
 * sockets under fast-check, each judged by the oracle, while a probe asks `whoami` with a
 * valid key every few milliseconds and records how much longer than usual it waited.
 */
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { caseLabel, type FuzzCase, fuzzCase } from '../../conformance/fuzz/cases.ts';
import { answerViolations, type OracleOptions, rawViolations } from '../../conformance/fuzz/oracle.ts';
import { memoryStore, seedTenant, startServer, tinyDataset } from '../testing.ts';
import { type FuzzTarget, sendHttp, sendRaw } from './transport.ts';

/** How a campaign runs. */
export interface CampaignOptions {
  cases: number;
  seed: number;
  /** fast-check's replay path of a counterexample (`--path`): runs that case alone. */
  path?: string;
  /** Called now and then with the number of cases run so far. */
  onProgress?(done: number): void;
}

/** What a campaign found. */
export interface CampaignResult {
  passed: boolean;
  seed: number;
  /** Cases run, shrinking included, by transport and by `caseLabel`. */
  byTransport: Record<string, number>;
  byLabel: Record<string, number>;
  /** Answers by status. */
  byStatus: Record<string, number>;
  /** Fetch cases that fetch itself refused to send (a header value it does not allow). */
  unsendable: number;
  durationMs: number;
  /** Probes that overlapped a case, the probe's usual time, its worst delay beyond it, and the case in flight then. */
  probe: { count: number; baselineMs: number; maxDelayMs: number; worstDuring: string; failures: string[] };
  /** On failure: the smallest failing case, why it failed, and fast-check's replay path. */
  failure?: { counterexample: FuzzCase; error: string; path: string };
  /** Server log lines of errors it did not expect. */
  serverErrors: string[];
}

const ADMIN_TOKEN = 'wba_fuzz-admin-token';
const ORACLE: OracleOptions = { requestId: true };
/** How often the probe asks while the campaign runs. */
const PROBE_INTERVAL_MS = 20;

/** The median of `values`. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** A probe of the sandbox at `url` with `key`: one `whoami` per call, timed. */
function prober(url: string, key: string) {
  return async (): Promise<{ ms: number; failure?: string }> => {
    const start = performance.now();
    try {
      const response = await fetch(`${url}/api/v1/integration/whoami`, { headers: { 'X-Api-Key': key }, signal: AbortSignal.timeout(5000) });
      await response.arrayBuffer();
      return { ms: performance.now() - start, ...(response.status === 200 ? {} : { failure: `probe answered ${response.status}` }) };
    } catch (error) {
      return { ms: performance.now() - start, failure: `probe failed: ${(error as Error).message}` };
    }
  };
}

/** Runs one campaign (see the module comment) and resolves to what it found; throws only when the harness itself breaks. */
export async function runCampaign(options: CampaignOptions): Promise<CampaignResult> {
  const store = memoryStore();
  const dataset = tinyDataset({ orders: 60, trips: 10 });
  const { keys } = seedTenant(store, dataset, { rateLimit: 6000 });
  const probeKey = seedTenant(store, tinyDataset({ orders: 1, externalIdPrefix: 'PROBE', idSpace: 1 }), { rateLimit: 6000 }).keys.full;
  const playground = seedTenant(store, tinyDataset({ orders: 5, externalIdPrefix: 'PLAY', idSpace: 2 })).tenantId;
  const server = await startServer(store, { adminToken: ADMIN_TOKEN, bodyIdleTimeoutMs: 1000 });
  const target: FuzzTarget = { url: server.url, keys: { full: keys.full, ordersRead: keys.ordersRead, noScopes: keys.noScopes }, adminToken: ADMIN_TOKEN, timeoutMs: 5000 };
  const arbitrary = fuzzCase({ sandbox: true, raw: true, pathValues: { externalId: dataset.orders.flatMap((order) => (order.externalId === null ? [] : [order.externalId])), tenantId: [playground] } });

  const byTransport: Record<string, number> = {};
  const byLabel: Record<string, number> = {};
  const byStatus: Record<string, number> = {};
  let unsendable = 0;
  let done = 0;
  const count = (record: Record<string, number>, key: string) => (record[key] = (record[key] ?? 0) + 1);

  const probe = prober(server.url, probeKey);
  const baseline: number[] = [];
  for (let i = 0; i < 30; i += 1) baseline.push((await probe()).ms);
  const baselineMs = median(baseline.slice(5));
  const probes = { count: 0, maxDelayMs: 0, worstDuring: '', failures: [] as string[] };
  let inFlight = '';
  let probing = true;
  const probeLoop = (async () => {
    while (probing) {
      const before = inFlight;
      const { ms, failure } = await probe();
      // Only a probe that overlapped a case measures what a bad request costs a good one.
      const during = before || inFlight;
      if (during !== '') {
        probes.count += 1;
        if (ms - baselineMs > probes.maxDelayMs) [probes.maxDelayMs, probes.worstDuring] = [ms - baselineMs, during];
      }
      if (failure !== undefined && probes.failures.length < 10) probes.failures.push(failure);
      await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS));
    }
  })();

  const check = async (item: FuzzCase): Promise<void> => {
    done += 1;
    count(byTransport, item.transport);
    inFlight = caseLabel(item);
    count(byLabel, inFlight);
    if (done % 250 === 0) options.onProgress?.(done);
    let violations: string[];
    if (item.transport === 'raw') {
      const outcome = await sendRaw(item, target);
      for (const answer of outcome.answers) count(byStatus, String(answer.status));
      if (outcome.answers.length === 0) count(byStatus, outcome.end === 'timeout' ? 'stalled' : 'closed unanswered');
      violations = rawViolations(item, outcome, ORACLE);
    } else {
      const answer = await sendHttp(item, target);
      if ('unsendable' in answer) {
        inFlight = '';
        unsendable += 1;
        return;
      }
      if ('dropped' in answer) {
        count(byStatus, 'dropped');
        violations = [`the connection dropped without an answer (${answer.dropped})`];
      } else {
        count(byStatus, String(answer.status));
        violations = answerViolations(answer, ORACLE);
      }
    }
    inFlight = '';
    if (violations.length > 0) throw new Error(violations.join('; '));
  };

  const start = performance.now();
  try {
    const details = await fc.check(fc.asyncProperty(arbitrary, check), {
      numRuns: options.cases,
      seed: options.seed,
      ...(options.path === undefined ? {} : { path: options.path }),
    });
    const durationMs = performance.now() - start;
    probing = false;
    await probeLoop;
    const serverErrors = server.log.lines.filter((line) => / failed:/.test(line)).slice(0, 20);
    const result: CampaignResult = {
      passed: !details.failed && serverErrors.length === 0 && probes.failures.length === 0,
      seed: options.seed,
      byTransport,
      byLabel,
      byStatus,
      unsendable,
      durationMs,
      probe: { count: probes.count, baselineMs, maxDelayMs: probes.maxDelayMs, worstDuring: probes.worstDuring, failures: probes.failures },
      serverErrors,
    };
    if (details.failed && details.counterexample !== null) {
      result.failure = { counterexample: details.counterexample[0], error: details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance), path: details.counterexamplePath ?? '' };
    }
    return result;
  } finally {
    probing = false;
    await probeLoop;
    await server.close();
  }
}
