/**
 * The primary process of `waybill serve --workers N` (D83), on PostgreSQL: it has migrated
 * and seeded the database already; it forks N workers (node:cluster) that share one port,
 * hands each the admin token over IPC, prints the banner once they all answer, replaces a
 * worker that dies (giving up on a crash loop), and on SIGTERM or SIGINT stops them all,
 * waiting for their drain, killing what outlives a bound.
 */
import cluster, { type Worker } from 'node:cluster';
import { type FromWorker, type ToWorker, WORKER_ENV } from './serve-worker.ts';

/** A crash loop: this many deaths of workers within `CRASH_WINDOW_MS` and the primary gives up. */
export const CRASH_LIMIT = 5;
export const CRASH_WINDOW_MS = 60_000;

/** How long the workers get to drain and close once told to stop; what runs past it is killed. */
export const STOP_BOUND_MS = 10_000;

/** What the primary is started with. */
export interface PrimaryOptions {
  workers: number;
  adminToken: string;
  /** Called once every worker answers, with the URL they share and their pids: leaves the token file, prints the banner; answers how to undo that at the end, or throws a one-line reason to stop. */
  ready: (url: string, pids: number[]) => () => void;
}

/** How a worker ended, as one line says it. */
const endOf = (code: number | null, signal: string | null) => (signal !== null ? `killed by ${signal}` : `exited with code ${code}`);

// requirement: D83
/** Runs the workers until SIGTERM or SIGINT; resolves to the exit code (0 when every worker drained). */
export function runPrimary(options: PrimaryOptions): Promise<number> {
  const live = new Set<Worker>();
  const failures = new Map<Worker, string>();
  const deaths: number[] = [];
  let url: string | null = null;
  let undo = () => {};
  let stopping = false;
  let code = 0;
  let finish: (code: number) => void = () => {};
  const finished = new Promise<number>((resolve) => (finish = resolve));
  const send = (worker: Worker, message: ToWorker) => {
    if (worker.isConnected()) worker.send(message);
  };

  function fork(): Worker {
    const worker = cluster.fork({ [WORKER_ENV]: '1' });
    live.add(worker);
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'hello') send(worker, stopping ? { type: 'stop' } : { type: 'start', adminToken: options.adminToken });
      else if (message.type === 'failed') failures.set(worker, message.message);
      else if (message.type === 'ready') listening(worker, message.url);
    });
    // An IPC channel the worker closed while dying is no error of the primary's.
    worker.on('error', () => {});
    worker.on('exit', (exitCode, signal) => exited(worker, exitCode, signal));
    return worker;
  }

  const ready = new Set<Worker>();
  function listening(worker: Worker, at: string): void {
    ready.add(worker);
    if (url !== null || stopping) return;
    if (ready.size < options.workers) return;
    url = at;
    try {
      undo = options.ready(at, [...ready].map((each) => each.process.pid!));
      // However the primary ends short of SIGKILL, what `ready` left (the token file's entry) goes with it.
      process.once('exit', () => undo());
    } catch (error) {
      // The token file that cannot be written: the command's failure, as without workers.
      code = 2;
      process.stderr.write(`waybill: ${(error as Error).message}\n`);
      stop();
    }
  }

  function exited(worker: Worker, exitCode: number | null, signal: string | null): void {
    live.delete(worker);
    ready.delete(worker);
    const failure = failures.get(worker);
    failures.delete(worker);
    if (stopping) {
      if (live.size === 0) finish(code);
      return;
    }
    if (url === null) {
      // Before the banner a worker that cannot start is the command's failure: its reason, in one line.
      code = 2;
      process.stderr.write(`waybill: ${failure ?? `a worker ${endOf(exitCode, signal)} while starting`}\n`);
      return stop();
    }
    const now = Date.now();
    deaths.push(now);
    while (deaths[0]! <= now - CRASH_WINDOW_MS) deaths.shift();
    const why = `worker ${worker.process.pid} ${endOf(exitCode, signal)}${failure === undefined ? '' : ` (${failure})`}`;
    if (deaths.length >= CRASH_LIMIT) {
      code = 1;
      process.stderr.write(`waybill: ${why}; ${deaths.length} workers died within ${CRASH_WINDOW_MS / 1000} s: giving up\n`);
      return stop();
    }
    process.stderr.write(`waybill: ${why}; started worker ${fork().process.pid} in its place\n`);
  }

  function stop(): void {
    if (stopping) return;
    stopping = true;
    if (live.size === 0) return finish(code);
    for (const worker of live) send(worker, { type: 'stop' });
    setTimeout(() => {
      for (const worker of live) {
        process.stderr.write(`waybill: worker ${worker.process.pid} still running ${STOP_BOUND_MS / 1000} s after the stop: killed\n`);
        code = code === 0 ? 1 : code;
        worker.process.kill('SIGKILL');
      }
    }, STOP_BOUND_MS).unref();
  }

  const signalled = (signal: string) => () => {
    if (url !== null) process.stdout.write(`\n${signal}: shutting down\n`);
    stop();
  };
  process.once('SIGINT', signalled('SIGINT'));
  process.once('SIGTERM', signalled('SIGTERM'));
  for (let n = 0; n < options.workers; n++) fork();
  return finished.then((exitCode) => {
    undo();
    return exitCode;
  });
}
