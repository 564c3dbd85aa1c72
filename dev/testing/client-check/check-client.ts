/** Test support: a client-check run of a command against a sandbox of its own, results by scenario id. */
import type { CheckResult, RunReport } from '../../../conformance/engine/types/report.ts';
import { startOwnSandbox } from '../../../conformance/client-check/own-sandbox.ts';
import { runClientCheck } from '../../../conformance/client-check/run.ts';
import { timedStart } from '../start-times.ts';
import { callSandbox } from '../sandbox.ts';
import { GRADER_REQUEST_ID } from '../../../conformance/client-check/scenario.ts';
import type { LogSummary } from '../../../conformance/client-check/control-plane.ts';

/** The example client and its naive launcher, as `node` arguments. */
export const EXAMPLE_CLIENT = 'conformance/client-check/example/client.mjs';
export const NAIVE_CLIENT = 'conformance/client-check/example/naive.mjs';
export const PYTHON_CLIENT = 'conformance/client-check/example/client.py';

/** A client-check run, its results by scenario id, and the client's requests in the scenarios `logOf` names. */
export interface CheckedClient {
  report: RunReport;
  byId: Map<string, CheckResult>;
  /** By scenario id: the requests of the client under test, oldest first, as the sandbox logged them (the grader's left out). */
  logs: Map<string, LogSummary[]>;
}

/**
 * Runs `node args…` (or `options.command args…`) through the scenarios (all, or `only`) in a fresh
 * sandbox; before the sandbox closes, reads from its request log what the client sent in each
 * scenario of `logOf`.
 */
export async function checkClient(args: readonly string[], options: { only?: string[]; timeoutMs?: number; command?: string; concurrency?: number; logOf?: readonly string[] } = {}): Promise<CheckedClient> {
  const sandbox = await timedStart('sandbox', () => startOwnSandbox());
  try {
    const report = await runClientCheck({
      target: sandbox.url,
      adminToken: sandbox.adminToken,
      command: options.command ?? process.execPath,
      args,
      timeoutMs: options.timeoutMs ?? 20_000,
      ...(options.only ? { only: options.only } : {}),
      ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    });
    const logs = new Map<string, LogSummary[]>();
    for (const id of options.logOf ?? []) logs.set(id, await clientLog(sandbox, id));
    return { report, byId: new Map(report.results.map((result) => [result.id, result])), logs };
  } finally {
    await sandbox.close();
  }
}

/** The ids of the scenarios that did not pass, each with its outcome when it is not `fail`. */
export function notPassed(report: RunReport): string[] {
  return report.results.filter((result) => result.outcome !== 'pass').map((result) => (result.outcome === 'fail' ? result.id : `${result.id} (${result.outcome}: ${result.error?.message ?? result.reason ?? ''})`)).sort();
}

/** The requests of the key `client under test` in the tenant of scenario `id`, oldest first, the grader's own (its request ids) left out. */
async function clientLog(sandbox: { url: string; adminToken: string }, id: string): Promise<LogSummary[]> {
  const get = async (operationId: string, path: string) => {
    const answer = await callSandbox(sandbox.url, operationId, path, { token: sandbox.adminToken });
    if (answer.status !== 200) throw new Error(`${operationId} answered ${answer.status}`);
    return answer.body;
  };
  const tenant = ((await get('listTenants', '/tenants')).items as { id: string; name: string }[]).find((candidate) => candidate.name === `client-check ${id}`);
  if (tenant === undefined) throw new Error(`no tenant of scenario ${id}`);
  const key = ((await get('listApiKeys', `/tenants/${tenant.id}/keys`)).items as { id: string; name: string }[]).find((candidate) => candidate.name === 'client under test');
  if (key === undefined) throw new Error(`no client key in the tenant of ${id}`);
  const entries: LogSummary[] = [];
  let after: string | null = null;
  do {
    const page = await get('listRequests', `/tenants/${tenant.id}/requests?keyId=${key.id}&limit=100${after === null ? '' : `&after=${encodeURIComponent(after)}`}`);
    entries.push(...(page.items as LogSummary[]));
    after = page.nextCursor as string | null;
  } while (after !== null);
  return entries.filter((entry) => !entry.requestId.startsWith(GRADER_REQUEST_ID)).sort((a, b) => a.id - b.id);
}
