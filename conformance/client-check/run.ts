/**
 * A client-check run: the scenarios as checks of the suite's runner, against a sandbox's
 * control plane, graded into the same `RunReport` the conformance suite writes.
 */
import { operations, specHash } from '../../spec/load.ts';
import { shellLine } from '../../cli/shell-quote.ts';
import { runSuite } from '../engine/runner.ts';
import { createRedactor, type Secret } from '../transport/redaction.ts';
import type { Contract } from '../engine/types/contract.ts';
import type { ExchangeRecord } from '../engine/types/exchange.ts';
import type { CheckResult, GradedClient, RunReport, RunStart } from '../engine/types/report.ts';
import { clientRequirements } from './register.ts';
import { type ClientScenario, scenarioCheck } from './scenario.ts';
import { scenarios } from './scenarios/index.ts';

/** The contract a client-check reports against: the integration API's routes and the client rules. */
export const clientCheckContract: Contract = {
  specHash,
  routes: [...operations.values()].map(({ operationId, method, path }) => ({ operationId, method, path })),
  requirements: clientRequirements,
  // The catalog coverage is a server's: the client under test answers no code.
  coverage: () => [],
};

/** What one client-check run needs. */
export interface ClientCheckOptions {
  /** The sandbox's base URL (the client gets it as WAYBILL_BASE_URL). */
  target: string;
  adminToken: string;
  command: string;
  args: readonly string[];
  /** The time limit of each run of the client; default 30 000 ms. */
  timeoutMs?: number;
  /** Scenario ids, families (`client.pay`) or prefixes; default every scenario. */
  only?: readonly string[];
  /** Scenarios run at once, each with its own tenant; default 4. */
  concurrency?: number;
  /** A DECISION scenario's failure counts for the exit code, as `conformance --strict` (D55); default false: a warning. */
  strict?: boolean;
  /** Seeds the scenarios' random choices; random when absent, and recorded in the report either way (a replay passes the report's). */
  seed?: number;
  /** Aborted on Ctrl-C: no further scenario starts, and the report says the run was interrupted (D55). */
  interrupt?: AbortSignal;
  onStart?(start: RunStart): void;
  onResult?(result: CheckResult): void;
  onScenario?(scenario: ClientScenario): void;
  /** Receives every exchange of the run (redacted) once the last scenario has finished: the log entries of the client's requests among them. */
  onExchanges?(exchanges: readonly ExchangeRecord[]): void;
}

/** The client as every report names it: its command line, with the run's secrets redacted as in the rest of the report. */
export function gradedClient(command: string, args: readonly string[], secrets: readonly Secret[]): GradedClient {
  return { command: createRedactor(secrets).redact(shellLine([command, ...args])) };
}

/** Runs the client through the scenarios and resolves to the report. */
export async function runClientCheck(options: ClientCheckOptions): Promise<RunReport> {
  const target = options.target.replace(/\/+$/, '');
  const client = { command: options.command, args: options.args, timeoutMs: options.timeoutMs ?? 30_000, ...(options.onScenario ? { onScenario: options.onScenario } : {}) };
  const secrets: Secret[] = [{ value: options.adminToken, name: 'adminToken', envVar: 'WAYBILL_ADMIN_TOKEN' }];
  const graded = gradedClient(options.command, options.args, secrets);
  const { onStart } = options;
  const report = await runSuite({
    suite: 'waybill-client-check',
    checks: scenarios.map((scenario) => scenarioCheck(scenario, client)),
    // The client's keys are made per scenario; the profile brings only the control plane.
    profile: { keys: { full: '' }, sandbox: { url: `${target}/sandbox/v1`, token: options.adminToken } },
    target,
    contract: clientCheckContract,
    concurrency: options.concurrency ?? 4,
    only: options.only ?? [],
    strict: options.strict ?? false,
    timeoutMs: 30_000,
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.interrupt === undefined ? {} : { interrupt: options.interrupt }),
    secrets,
    ...(onStart ? { onStart: (start: RunStart) => onStart({ ...start, client: graded }) } : {}),
    ...(options.onResult ? { onResult: options.onResult } : {}),
    ...(options.onExchanges ? { onExchanges: options.onExchanges } : {}),
  });
  // The profile was only the control plane: the keys are the scenarios' own, made and redacted per scenario.
  return { ...report, profile: { keys: [], pools: {}, feeds: {}, sandbox: true, choices: [] }, client: graded };
}
