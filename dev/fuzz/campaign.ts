/**
 * The fuzz campaign against the reference sandbox: a sandbox in-process on 127.0.0.1, seeded
 * tenants and keys, `cases` generated requests (conformance/fuzz) sent over fetch and raw
 * sockets, each judged (run-case.ts), while a probe asks `whoami` with a valid key every few
 * milliseconds and records how much longer than usual it waited. One case at a time under
 * fast-check, which shrinks a failing case to the smallest; or `concurrency` at a time over
 * the same seeded cases, for a quick run that counts every failure.
 */
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { caseLabel, type FuzzCase, fuzzCase } from '../../conformance/fuzz/cases.ts';
import { memoryStore, seedTenant, startServer, tinyDataset } from '../testing/sandbox.ts';
import { type CaseOutcome, runCase } from './run-case.ts';
import type { FuzzTarget } from './transport.ts';

/** How a campaign runs. */
export interface CampaignOptions {
  cases: number;
  seed: number;
  /** Cases in flight at once (default 1: one at a time, a failure shrunk by fast-check). */
  concurrency?: number;
  /** fast-check's replay path of a counterexample (`--path`): runs that case alone. */
  path?: string;
  /** Called now and then with the number of cases run so far. */
  onProgress?(done: number): void;
}

/** What the campaign counted: the figures a run prints and fails on. */
export interface Figures {
  /** Cases sent (fetch cases fetch refused to send are not). */
  requests: number;
  answers: number;
  /** Answers of 500 or more. */
  serverErrors: number;
  /** Error answers that are not problem+json. */
  nonProblems: number;
  /** Answers whose status the contract does not declare for the request. */
  undeclared: number;
  /** Connections that ended without the answer asked for, or in the middle of one. */
  drops: number;
  /** Cases that broke any rule. */
  failing: number;
  /** The case that took longest, from its first byte to its last answer. */
  slowest: { label: string; ms: number };
}

/** A failing case of a concurrent run: its position among the seeded cases, itself, and what broke. */
export interface FailingCase {
  index: number;
  item: FuzzCase;
  error: string;
}

/** What a campaign found. */
export interface CampaignResult {
  passed: boolean;
  seed: number;
  concurrency: number;
  figures: Figures;
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
  /** One case at a time: the smallest failing case, why it failed, and fast-check's replay path. */
  failure?: { counterexample: FuzzCase; error: string; path: string };
  /** Concurrent: the first failing cases. */
  failures: FailingCase[];
  /** Server log lines of errors it did not expect. */
  serverErrors: string[];
}

const ADMIN_TOKEN = 'wba_fuzz-admin-token';
/** How often the probe asks while the campaign runs. */
const PROBE_INTERVAL_MS = 20;
/** Failing cases of a concurrent run kept in full. */
const KEPT_FAILURES = 10;

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
  const concurrency = options.concurrency ?? 1;
  const store = await memoryStore();
  const dataset = tinyDataset({ orders: 60, trips: 10 });
  const { keys } = await seedTenant(store, dataset, { rateLimit: 6000 });
  const probeKey = (await seedTenant(store, tinyDataset({ orders: 1, externalIdPrefix: 'PROBE', idSpace: 1 }), { rateLimit: 6000 })).keys.full;
  const playground = (await seedTenant(store, tinyDataset({ orders: 5, externalIdPrefix: 'PLAY', idSpace: 2 }))).tenantId;
  const server = await startServer(store, { adminToken: ADMIN_TOKEN, bodyIdleTimeoutMs: 1000 });
  const target: FuzzTarget = { url: server.url, keys: { full: keys.full, ordersRead: keys.ordersRead, noScopes: keys.noScopes }, adminToken: ADMIN_TOKEN, timeoutMs: 5000 };
  const arbitrary = fuzzCase({ sandbox: true, raw: true, rawSandbox: true, pathValues: { externalId: dataset.orders.flatMap((order) => (order.externalId === null ? [] : [order.externalId])), tenantId: [playground] } });

  const byTransport: Record<string, number> = {};
  const byLabel: Record<string, number> = {};
  const byStatus: Record<string, number> = {};
  const figures: Figures = { requests: 0, answers: 0, serverErrors: 0, nonProblems: 0, undeclared: 0, drops: 0, failing: 0, slowest: { label: '', ms: 0 } };
  let unsendable = 0;
  let done = 0;
  const count = (record: Record<string, number>, key: string) => (record[key] = (record[key] ?? 0) + 1);

  // The same cases, in the same order, as fast-check would run one at a time with this seed;
  // made before the probe starts, since making the large bodies holds the process.
  const items = concurrency === 1 ? [] : fc.sample(arbitrary, { seed: options.seed, numRuns: options.cases });
  const probe = prober(server.url, probeKey);
  const baseline: number[] = [];
  for (let i = 0; i < 30; i += 1) baseline.push((await probe()).ms);
  const baselineMs = median(baseline.slice(5));
  const probes = { count: 0, maxDelayMs: 0, worstDuring: '', failures: [] as string[] };
  // The cases in flight, by label: a probe that overlapped one measures what a bad request costs a good one.
  const inFlight = new Map<string, number>();
  const busy = () => [...inFlight.keys()].join(' + ');
  let probing = true;
  const probeLoop = (async () => {
    while (probing) {
      const before = busy();
      const { ms, failure } = await probe();
      const during = before || busy();
      if (during !== '') {
        probes.count += 1;
        if (ms - baselineMs > probes.maxDelayMs) [probes.maxDelayMs, probes.worstDuring] = [ms - baselineMs, during];
      }
      if (failure !== undefined && probes.failures.length < 10) probes.failures.push(failure);
      await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS));
    }
  })();

  /** Runs one case, counts what it came to, and returns its violations. */
  const check = async (item: FuzzCase): Promise<string[]> => {
    done += 1;
    if (done % 250 === 0) options.onProgress?.(done);
    const label = caseLabel(item);
    inFlight.set(label, (inFlight.get(label) ?? 0) + 1);
    let outcome: CaseOutcome;
    try {
      outcome = await runCase(item, target);
    } finally {
      const left = inFlight.get(label)! - 1;
      if (left === 0) inFlight.delete(label);
      else inFlight.set(label, left);
    }
    count(byTransport, item.transport);
    count(byLabel, outcome.label);
    if (outcome.unsendable) {
      unsendable += 1;
      return [];
    }
    for (const status of outcome.statuses) count(byStatus, status);
    figures.requests += 1;
    figures.answers += outcome.statuses.filter((status) => /^\d+$/.test(status)).length;
    figures.serverErrors += outcome.serverErrors;
    figures.nonProblems += outcome.nonProblems;
    figures.undeclared += outcome.undeclared.length;
    figures.drops += outcome.drops;
    if (outcome.violations.length > 0) figures.failing += 1;
    if (outcome.ms > figures.slowest.ms) figures.slowest = { label: outcome.label, ms: outcome.ms };
    return outcome.violations;
  };

  const start = performance.now();
  const failures: FailingCase[] = [];
  let failure: CampaignResult['failure'];
  try {
    if (concurrency === 1) {
      const details = await fc.check(
        fc.asyncProperty(arbitrary, async (item) => {
          const violations = await check(item);
          if (violations.length > 0) throw new Error(violations.join('; '));
        }),
        { numRuns: options.cases, seed: options.seed, ...(options.path === undefined ? {} : { path: options.path }) },
      );
      if (details.failed && details.counterexample !== null) {
        failure = { counterexample: details.counterexample[0], error: details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance), path: details.counterexamplePath ?? '' };
      }
    } else {
      let next = 0;
      const worker = async () => {
        for (let index = next++; index < items.length; index = next++) {
          const violations = await check(items[index]!);
          if (violations.length > 0 && failures.length < KEPT_FAILURES) failures.push({ index, item: items[index]!, error: violations.join('; ') });
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
      failures.sort((a, b) => a.index - b.index);
    }
    const durationMs = performance.now() - start;
    probing = false;
    await probeLoop;
    const serverErrors = server.log.lines.filter((line) => / failed:/.test(line)).slice(0, 20);
    return {
      passed: figures.failing === 0 && failure === undefined && serverErrors.length === 0 && probes.failures.length === 0,
      seed: options.seed,
      concurrency,
      figures,
      byTransport,
      byLabel,
      byStatus,
      unsendable,
      durationMs,
      probe: { count: probes.count, baselineMs, maxDelayMs: probes.maxDelayMs, worstDuring: probes.worstDuring, failures: probes.failures },
      ...(failure === undefined ? {} : { failure }),
      failures,
      serverErrors,
    };
  } finally {
    probing = false;
    await probeLoop;
    await server.close();
  }
}
