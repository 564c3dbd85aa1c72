/**
 * Runs the client under test once: its own process group, no shell, the task in its
 * environment, a time limit after which the whole group is killed. Its output is kept only
 * to explain a crash or a timeout; nothing is graded from it.
 */
import { spawn } from 'node:child_process';

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

/** Runs `command` with `args` until it exits or `timeoutMs` passes (then its process group gets SIGKILL). */
export function runClient(command: string, args: readonly string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<ClientExit> {
  return new Promise((resolve, reject) => {
    const startedAt = Date.now();
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'], detached: true, shell: false });
    let stderrTail = '';
    let timedOut = false;
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderrTail = (stderrTail + chunk).slice(-TAIL);
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
      reject(new Error(`cannot start ${command}: ${error.message}`));
    });
    child.once('close', (exitCode, signal) => {
      clearTimeout(timer);
      // Children the client left behind do not outlive its run.
      if (!timedOut) killGroup();
      resolve({ startedAt, finishedAt: Date.now(), exitCode, signal, timedOut, stderrTail });
    });
  });
}
