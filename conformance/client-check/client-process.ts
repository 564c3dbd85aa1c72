/**
 * Runs the client under test once: its own process group, no shell, the task in its
 * environment, a time limit after which the whole group is killed. The end of its output is
 * kept to explain a crash or a timeout and for the report; nothing is graded from it.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** How one run of the client ended. */
export interface ClientExit {
  /** Wall-clock times (ms since the epoch) around the run. */
  startedAt: number;
  finishedAt: number;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** The last 2 KiB the client wrote on stderr, for a finding about a crash or a timeout. */
  stderrTail: string;
  /** The last 2 KiB it wrote on stdout, for the report. */
  stdoutTail: string;
}

const TAIL = 2048;

/**
 * The environment the client gets: the parent's, without any `WAYBILL_*` variable of
 * waybill's own (an admin token must never reach the client), plus the task's.
 */
export function clientEnvironment(task: Record<string, string>, parent: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const inherited = Object.entries(parent).filter(([name]) => !name.startsWith('WAYBILL_'));
  return { ...Object.fromEntries(inherited), ...task };
}

/** True when `file` is a file this process may execute. */
function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * Why `command` cannot be started as `runClient` starts it (no shell: a path, or a name looked
 * up on `PATH`), or null when it can: checked before any scenario is staged, so that a typo is
 * one line rather than an error per scenario.
 */
export function commandProblem(command: string, path = process.env['PATH'] ?? ''): string | null {
  if (command.includes('/')) {
    try {
      statSync(command);
    } catch {
      return `${command} does not exist`;
    }
    return executable(command) ? null : `${command} is not an executable file (chmod +x it, or name its interpreter first: -- python3 ${command})`;
  }
  const found = path.split(delimiter).filter((folder) => folder !== '').some((folder) => executable(join(folder, command)));
  return found ? null : `${command} is not a command on PATH`;
}

/** Runs `command` with `args` until it exits or `timeoutMs` passes (then its process group gets SIGKILL). */
export function runClient(command: string, args: readonly string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<ClientExit> {
  return new Promise((resolve, reject) => {
    const startedAt = Date.now();
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true, shell: false });
    let stderrTail = '';
    let stdoutTail = '';
    let timedOut = false;
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderrTail = (stderrTail + chunk).slice(-TAIL);
    });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdoutTail = (stdoutTail + chunk).slice(-TAIL);
    });
    const killGroup = () => {
      try {
        // The negative pid is the group: the client's own children go with it.
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot start ${command}: ${error.message.replace(/^Error: /, '')}`));
    });
    child.once('close', (exitCode, signal) => {
      clearTimeout(timer);
      // Children the client left behind do not outlive its run.
      if (!timedOut) killGroup();
      resolve({ startedAt, finishedAt: Date.now(), exitCode, signal, timedOut, stderrTail, stdoutTail });
    });
  });
}
