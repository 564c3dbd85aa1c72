/**
 * A client-check scenario is a record like a conformance check: id, title, the requirements it
 * verifies (its level and rule come from them), the task the client is given, the setup of its
 * tenant, and the grade. `scenarioCheck` turns one into a check the suite's runner runs, so a
 * client-check report is a conformance report: same model, same reporters.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Check, CheckContext, Finding } from '../engine/types/check.ts';
import type { HttpClient, LoggedRequest } from '../engine/types/exchange.ts';
import { clientEnvironment, type ClientExit, runClient } from './client-process.ts';
import { type ControlPlane, controlPlane, type CreatedKey, type LogSummary } from './control-plane.ts';

/** What the client is asked to do (`WAYBILL_TASK`). */
export type ClientTask = 'sync-orders' | 'sync-trips' | 'pay' | 'cancel' | 'archive';

/** The task's inputs, each passed as its `WAYBILL_*` variable when given. */
export interface TaskInputs {
  externalId?: string;
  paymentId?: string;
  amount?: string;
  currency?: string;
}

/** One run of the client and the requests it made, from the tenant's request log. */
export interface ClientRun extends ClientExit {
  requests: LogSummary[];
}

/** What a scenario's setup and grade work with. */
export interface ScenarioSession {
  tenantId: string;
  /** The client's key: its requests are the ones graded. */
  clientKeyId: string;
  /** Its secret, for the grader's own requests with it (their request ids start with `GRADER_REQUEST_ID`). */
  clientKey: string;
  control: ControlPlane;
  /** What the setup leaves for the grade (the id of the order it made, say), by name. */
  notes: Map<string, string>;
  /** Requests to the integration API with a key of the grader's own (created on first use; its requests are never graded). */
  integration(): Promise<{ http: HttpClient; key: string }>;
  /** A log entry with its bodies and, for a feed answer, its page. */
  entry(summary: LogSummary): ReturnType<ControlPlane['entry']>;
}

/**
 * The sandbox did not stage what a scenario claims (no unknown status in the feed, a fault that
 * never fired): the client cannot be graded on it. The scenario ends in error, so the run is
 * INCOMPLETE (exit 2) with this message, never a pass or a fail.
 */
export class StagingError extends Error {
  constructor(what: string) {
    super(`not staged: ${what}`);
    this.name = 'StagingError';
  }
}

/** Request ids of the grader's own requests made with the client's key (the marker, a drain): never graded. */
export const GRADER_REQUEST_ID = 'client-check-';

/** A scenario: one known way clients break, staged and graded. */
export interface ClientScenario {
  /** `client.<task family>.<name>`, e.g. `client.pay.answer-lost`. */
  id: string;
  title: string;
  /** Ids of the client-check register (`register.ts`). */
  verifies: readonly string[];
  /** What a correct client does instead, ending with the ids of `verifies` it cites (`Check.fix`): every finding that brings none of its own carries it. */
  fix: string;
  task: ClientTask;
  /** When present, the client runs a second time with this task (the trip feed after the order feed), `between` (if any) in between. */
  secondTask?: ClientTask;
  /** The client's key, when not one with every scope and the default rate limit. */
  key?: { scopes?: readonly string[]; rateLimitPerMinute?: number };
  /** The least time one run of the client is given, when the scenario needs more than `--timeout-ms` (a paced sync). */
  timeBudgetMs?: number;
  /** Prepares the tenant (data, faults, clock, simulation) and gives the task's inputs. */
  setup(session: ScenarioSession): Promise<TaskInputs>;
  /** Proves, before the client runs, that the tenant holds what the scenario claims; throws a `StagingError` when it does not. */
  staged(session: ScenarioSession): Promise<void>;
  /** When present, runs beside the client's first run until `exited` settles (a clock to start at its first request). */
  during?(session: ScenarioSession, exited: Promise<unknown>): Promise<void>;
  /** When present, the client runs a second time after this (changes made between two syncs), with `secondTask` or the same task. */
  between?(session: ScenarioSession): Promise<void>;
  /** The findings, from the runs' requests and the sandbox's state; none = pass. Throws a `StagingError` when the run shows the staging failed. */
  grade(session: ScenarioSession, runs: readonly ClientRun[]): Promise<Finding[]>;
}

/** How the scenarios run the client. */
export interface ClientCommand {
  command: string;
  args: readonly string[];
  /** The time limit of one run of the client. */
  timeoutMs: number;
  /** Called as each scenario starts (the CLI's progress line). */
  onScenario?(scenario: ClientScenario): void;
}

/** A request of the log as a finding shows it. */
export function logged(entry: LogSummary): LoggedRequest {
  const fault = entry.fault === null ? null : `${entry.fault.fault}${entry.fault.when === null ? '' : ` ${entry.fault.when}`} (${entry.fault.source})`;
  return {
    entryId: entry.id,
    requestId: entry.requestId,
    atUtc: entry.atUtc,
    operation: entry.operation,
    method: entry.method,
    path: entry.path,
    status: entry.status,
    problemType: entry.problemType,
    idempotencyKey: entry.idempotencyKey,
    replayed: entry.replayed,
    fault,
  };
}

/** Waits `ms` milliseconds. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The longest the grader waits for its marker request to show in the request log. */
const MARKER_WAIT_MS = 30_000;

/**
 * The client's requests logged after `afterId`, once the log holds all of them. Entries are
 * written in batches a few milliseconds after their answers (D48), so after the client has
 * exited a marker request goes with its key, a `whoami` with a request id of its own: every
 * request the client finished is logged before it. Resolves to the requests and the marker's id.
 */
async function settledRequests(session: ScenarioSession, http: HttpClient, key: string, afterId: number): Promise<{ requests: LogSummary[]; markerId: number }> {
  const marker = `${GRADER_REQUEST_ID}marker-${randomUUID()}`;
  await http.request({ method: 'GET', path: '/api/v1/integration/whoami', key, headers: { 'x-request-id': marker } });
  // A busy target writes its log late; the marker is polled for, so a prompt one costs no wait.
  const until = Date.now() + MARKER_WAIT_MS;
  do {
    const entries = await session.control.requests(session.tenantId, session.clientKeyId, afterId);
    const logged = entries.find((entry) => entry.requestId === marker);
    if (logged !== undefined) return { requests: entries.filter((entry) => entry.id < logged.id && !entry.requestId.startsWith(GRADER_REQUEST_ID)), markerId: logged.id };
    await sleep(25);
  } while (Date.now() < until);
  throw new Error(`the request log did not record the marker request within ${MARKER_WAIT_MS / 1000} s`);
}

/** The task's environment variables. */
function taskVariables(target: string, key: CreatedKey, task: ClientTask, inputs: TaskInputs, stateFile: string): Record<string, string> {
  const optional: [string, string | undefined][] = [
    ['WAYBILL_EXTERNAL_ID', inputs.externalId],
    ['WAYBILL_PAYMENT_ID', inputs.paymentId],
    ['WAYBILL_AMOUNT', inputs.amount],
    ['WAYBILL_CURRENCY', inputs.currency],
  ];
  return {
    WAYBILL_BASE_URL: target,
    WAYBILL_API_KEY: key.secret,
    WAYBILL_TASK: task,
    WAYBILL_STATE_FILE: stateFile,
    ...Object.fromEntries(optional.filter((entry): entry is [string, string] => entry[1] !== undefined)),
  };
}

/** The time limit of one run of the client in `scenario`: `--timeout-ms`, or the scenario's budget when larger. */
const runTimeoutMs = (client: ClientCommand, scenario: ClientScenario) => Math.max(client.timeoutMs, scenario.timeBudgetMs ?? 0);

/** A finding for a run that did not end by itself in time. */
function timeoutFinding(run: ClientRun, timeoutMs: number): Finding {
  return {
    message: 'The client did not finish its task within the time limit; it was killed',
    expected: `the client exits within ${timeoutMs} ms`,
    received: `still running after ${timeoutMs} ms${run.stderrTail === '' ? '' : `; the end of its stderr: ${run.stderrTail.slice(-400)}`}`,
    requests: run.requests.slice(-5).map(logged),
  };
}

/**
 * The line of `text` that says how a crash ended, cut to 200 characters: the last that holds
 * anything, leaving out what follows a JavaScript exception's message (its stack frames, Node's
 * `Node.js v20…` line), so an uncaught `TypeError: …` is named as Python's `KeyError: …` is.
 */
function lastLine(text: string): string {
  const lines = text.split('\n').filter((line) => line.trim() !== '' && !/^\s+at \S|^Node\.js v\d/.test(line));
  return lines.at(-1)?.trim().slice(0, 200) ?? '';
}

/** How long a run took, and how it ended, in words: `exit code 1 after 85 ms`, `killed by SIGSEGV after 2 s`. */
function endOf(run: ClientRun): string {
  const how = run.signal !== null ? `killed by ${run.signal}` : `exit code ${run.exitCode}`;
  return `${how} after ${run.finishedAt - run.startedAt} ms`;
}

/**
 * True when `run` ended in a crash: killed by a signal, or its stderr holds an uncaught
 * exception's trace (Python's Traceback, a JavaScript stack frame, Go's panic, Java's
 * "Exception in thread"). A client that reports an error and exits 1 has not crashed.
 */
function crashed(run: ClientRun): boolean {
  if (run.signal !== null && !run.timedOut) return true;
  return /Traceback \(most recent call last\)|^\s+at .+:\d+:\d+\)?$|^panic: |Exception in thread |Unhandled exception/m.test(run.stderrTail);
}

/**
 * A finding naming how a run that crashed ended, with the last line of its stderr: a client
 * that crashed at once (`ModuleNotFoundError`, `KeyError: 'OnHold'`) is named as such rather than
 * only by what it then never did. Added to a failing scenario's findings, never alone: nothing is
 * graded from a client's exit code (its exit code and output are in the report either way).
 */
function exitFinding(run: ClientRun): Finding {
  const line = lastLine(run.stderrTail);
  return {
    message: `The client crashed (${endOf(run)})${line === '' ? '' : `: ${line}`}`,
    expected: 'the client runs its task to its end (its exit code and output are in the report)',
    // The whole end of its output is in the client run's record, shown above the findings.
    received: `${endOf(run)}${line === '' ? ', nothing on stderr' : `; the last line of its stderr: ${line}`}`,
    ...(run.requests.length === 0 ? {} : { requests: run.requests.slice(-3).map(logged) }),
  };
}

/** A session over a fresh tenant with the client's key (`scenario.key`), and that key. */
async function openSession(ctx: CheckContext, scenario: ClientScenario): Promise<{ session: ScenarioSession; key: CreatedKey }> {
  const control = controlPlane(ctx.sandbox as HttpClient);
  const tenantId = await control.createTenant(`client-check ${scenario.id}`);
  const key = await control.createKey(tenantId, 'client under test', scenario.key);
  ctx.addSecret(key.secret, 'clientKey');
  let grader: Promise<{ http: HttpClient; key: string }> | undefined;
  // Each entry is read once: the grade and exchanges.har (readEntries) share it.
  const entries = new Map<number, ReturnType<ControlPlane['entry']>>();
  const session: ScenarioSession = {
    tenantId,
    clientKeyId: key.id,
    clientKey: key.secret,
    control,
    notes: new Map(),
    integration: () =>
      (grader ??= control.createKey(tenantId, 'client-check grader', { rateLimitPerMinute: 6000 }).then((created) => {
        ctx.addSecret(created.secret, 'graderKey');
        return { http: ctx.http, key: created.secret };
      })),
    entry(summary) {
      let entry = entries.get(summary.id);
      if (entry === undefined) {
        entry = control.entry(tenantId, summary.id);
        entries.set(summary.id, entry);
        entry.catch(() => entries.delete(summary.id));
      }
      return entry;
    },
  };
  return { session, key };
}

/**
 * Runs the client once, or twice when the scenario has `between` or a `secondTask` (`between`
 * in between), adding each run with its requests to `runs` as it ends. Both runs share the
 * state file, as two runs of one integration do.
 */
async function runTask(ctx: CheckContext, scenario: ClientScenario, client: ClientCommand, session: ScenarioSession, key: CreatedKey, inputs: TaskInputs, runs: ClientRun[]): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), 'waybill-client-check-'));
  try {
    const envOf = (task: ClientTask) => clientEnvironment(taskVariables(ctx.target, key, task, inputs, join(folder, 'state.json')));
    let afterId = 0;
    const timeoutMs = runTimeoutMs(client, scenario);
    const runOnce = async (task: ClientTask, during?: ClientScenario['during']) => {
      const running = runClient(client.command, client.args, envOf(task), timeoutMs);
      // The client runs to its end even when `during` fails; then the failure counts.
      const [exit, watched] = await Promise.allSettled([running, during?.(session, running.catch(() => undefined))]);
      if (exit.status === 'rejected') throw exit.reason;
      if (watched.status === 'rejected') throw watched.reason;
      const { requests, markerId } = await settledRequests(session, ctx.http, key.secret, afterId);
      afterId = markerId;
      runs.push({ ...exit.value, requests });
    };
    await runOnce(scenario.task, scenario.during?.bind(scenario));
    if (scenario.between !== undefined || scenario.secondTask !== undefined) {
      await scenario.between?.(session);
      await runOnce(scenario.secondTask ?? scenario.task);
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * Reads every request of the client's runs whole from the log (bodies, latency), eight at a
 * time: the recorded answers are what exchanges.har shows of the scenario (client-check/har.ts).
 */
async function readEntries(session: ScenarioSession, runs: readonly ClientRun[]): Promise<void> {
  const requests = runs.flatMap((run) => run.requests);
  for (let start = 0; start < requests.length; start += 8) await Promise.all(requests.slice(start, start + 8).map((request) => session.entry(request)));
}

/** The family of a scenario id: `client.pay.answer-lost` → `client.pay`. */
export function familyOf(id: string): string {
  return id.split('.').slice(0, 2).join('.');
}

/** `scenario` as a check of the runner: a fresh tenant and key, the setup, the client's run(s), the grade. */
export function scenarioCheck(scenario: ClientScenario, client: ClientCommand): Check {
  return {
    id: scenario.id,
    family: familyOf(scenario.id),
    title: scenario.title,
    verifies: scenario.verifies,
    fix: scenario.fix,
    requires: ['sandbox'],
    async run(ctx: CheckContext) {
      client.onScenario?.(scenario);
      const { session, key } = await openSession(ctx, scenario);
      const runs: ClientRun[] = [];
      let graded = false;
      try {
        const inputs = await scenario.setup(session);
        await scenario.staged(session);
        await runTask(ctx, scenario, client, session, key, inputs, runs);
        for (const run of runs) ctx.clientRun({ exitCode: run.exitCode, signal: run.signal, timedOut: run.timedOut, durationMs: run.finishedAt - run.startedAt, stdoutTail: run.stdoutTail, stderrTail: run.stderrTail });
        const timeouts = runs.filter((run) => run.timedOut).map((run) => timeoutFinding(run, runTimeoutMs(client, scenario)));
        const findings = [...timeouts, ...(await scenario.grade(session, runs))];
        // How a failing scenario's runs ended says why, when the client did not end well.
        const exits = findings.length === 0 ? [] : runs.filter(crashed).map(exitFinding);
        graded = true;
        return [...exits, ...findings];
      } finally {
        // The tenant stays, to be looked at in the console; a living feed does not go on writing into it.
        await session.control.stopSimulations();
        // A sandbox that cannot give them back is an error of a graded scenario; of one already failing, its own error stands.
        await readEntries(session, runs).catch((error: unknown) => {
          if (graded) throw error;
        });
      }
    },
  };
}
