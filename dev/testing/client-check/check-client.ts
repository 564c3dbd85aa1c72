/** Test support: a client-check run of a command against a sandbox of its own, results by scenario id. */
import type { CheckResult, RunReport } from '../../../conformance/engine/types/report.ts';
import { startOwnSandbox } from '../../../conformance/client-check/own-sandbox.ts';
import { runClientCheck } from '../../../conformance/client-check/run.ts';
import { timedStart } from '../start-times.ts';

/** The example client and its naive launcher, as `node` arguments. */
export const EXAMPLE_CLIENT = 'conformance/client-check/example/client.mjs';
export const NAIVE_CLIENT = 'conformance/client-check/example/naive.mjs';
export const PYTHON_CLIENT = 'conformance/client-check/example/client.py';

/** Runs `node args…` (or `options.command args…`) through the scenarios (all, or `only`) in a fresh sandbox. */
export async function checkClient(args: readonly string[], options: { only?: string[]; timeoutMs?: number; command?: string; concurrency?: number } = {}): Promise<{ report: RunReport; byId: Map<string, CheckResult> }> {
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
    return { report, byId: new Map(report.results.map((result) => [result.id, result])) };
  } finally {
    await sandbox.close();
  }
}

/** The ids of the scenarios that did not pass, each with its outcome when it is not `fail`. */
export function notPassed(report: RunReport): string[] {
  return report.results.filter((result) => result.outcome !== 'pass').map((result) => (result.outcome === 'fail' ? result.id : `${result.id} (${result.outcome}: ${result.error?.message ?? result.reason ?? ''})`)).sort();
}
