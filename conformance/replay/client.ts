/**
 * Replaying a client-check report's failures: client-check's own run (`runClientCheck`) with
 * `only` the failed scenarios and the report's seed and concurrency, of the client command the
 * report names (or the one given after `--`), in the sandbox client-check would choose.
 */
import { UsageError } from '../../cli/errors.ts';
import { shellWords } from '../../cli/shell-quote.ts';
import { commandProblem } from '../client-check/client-process.ts';
import { runClientCheck } from '../client-check/run.ts';
import { scenarios } from '../client-check/scenarios/index.ts';
import { assertTargetAnswers, givenSandbox, openStageSandbox } from '../client-check/stage-sandbox.ts';
import { suiteVersion } from '../engine/runner.ts';
import type { CheckResult, GradedClient, RunReport } from '../engine/types/report.ts';
import { notRunReason, type ReplayedCheck, type ReplayRun, unknownReason, verdictBook } from './verdicts.ts';

/** What a client-check replay is given. */
export interface ClientReplayOptions {
  report: RunReport;
  failed: readonly CheckResult[];
  /** The client's command given after `--`; default the report's. */
  client?: { command: string; args: string[] };
  target?: string;
  adminToken?: string;
  timeoutMs: number;
  interrupt: AbortSignal;
  onReplayed(check: ReplayedCheck): void;
}

/**
 * The client to run: the command given after `--`, else the report's command line read back
 * into words. A line with a secret redacted out of it, or one a shell would have to read, is
 * refused: run as it stands, it would not be the client that was graded.
 */
function clientOf(report: RunReport, given: ClientReplayOptions['client']): { command: string; args: string[] } {
  let client = given;
  if (client === undefined) {
    const line = report.client?.command;
    const giveIt = "give the client's command after --, e.g. waybill replay DIR -- node client.mjs";
    if (line === undefined) throw new UsageError(`the report names no client command: ${giveIt}`);
    if (line.includes('<redacted:')) throw new UsageError(`the report's client command had a secret in it, which the report leaves out (${line}): ${giveIt}`);
    const words = shellWords(line);
    if (words === null || words.length === 0) throw new UsageError(`the report's client command cannot be read back into words (${line}): ${giveIt}`);
    const [command, ...args] = words as [string, ...string[]];
    client = { command, args };
  }
  const unstartable = commandProblem(client.command);
  if (unstartable !== null) throw new UsageError(`cannot run the client: ${unstartable}`);
  return client;
}

/** Replays the failed scenarios of a client-check report (see the module comment). */
export async function replayClient(options: ClientReplayOptions): Promise<ReplayRun> {
  const { report, failed } = options;
  const client = clientOf(report, options.client);
  await assertTargetAnswers(options);
  const given = givenSandbox(options, 'waybill replay');
  const known = new Set(scenarios.map((scenario) => scenario.id));
  const book = verdictBook(failed, options.onReplayed);
  for (const failure of failed.filter((result) => !known.has(result.id))) book.missed(failure, unknownReason('such scenario', report, suiteVersion));
  const only = failed.filter((result) => known.has(result.id)).map((result) => result.id);
  const sandbox = await openStageSandbox(given);
  let interrupted: string | undefined;
  let graded: GradedClient = report.client ?? { command: client.command };
  try {
    if (only.length > 0) {
      const run = await runClientCheck({
        target: sandbox.target,
        adminToken: sandbox.adminToken,
        command: client.command,
        args: client.args,
        timeoutMs: options.timeoutMs,
        only,
        concurrency: report.options.concurrency,
        seed: report.seed,
        interrupt: options.interrupt,
        onResult: (result) => book.ran(result),
      });
      interrupted = run.interrupted?.signal;
      graded = run.client ?? graded;
    }
  } finally {
    await sandbox.close();
  }
  return { target: sandbox.target, seed: report.seed, client: graded, checks: book.close(notRunReason(interrupted)), ...(interrupted === undefined ? {} : { interrupted }) };
}
