/**
 * One worker process of `waybill serve --workers N` (D83): it asks the primary for the admin
 * token over the IPC channel (never an environment variable or a file), starts a sandbox on
 * the shared port over the PostgreSQL database the primary migrated and seeded, says when it
 * answers, and drains and exits 0 when told to stop: by the primary, by SIGTERM or SIGINT, or
 * when the primary is gone (its channel closed), so that no worker outlives it.
 */
import cluster from 'node:cluster';
import { WaybillError } from '../../cli/errors.ts';
import { consoleLogger } from '../http/log.ts';
import { warmValidators } from '../http/validate.ts';
import type { Store } from '../store/index.ts';
import { startSandbox } from './start-sandbox.ts';

/** Set in a worker's environment by the primary: this process serves as a worker. */
export const WORKER_ENV = 'WAYBILL_SERVE_WORKER';

/** How long a stopping worker gives the answers in progress, as `waybill serve` alone does. */
export const DRAIN_GRACE_MS = 2000;

/** What the primary sends a worker. */
export type ToWorker = { type: 'start'; adminToken: string } | { type: 'stop' };

/** What a worker sends the primary: asking for its start, ready at `url`, or failed to start (one line). */
export type FromWorker = { type: 'hello' } | { type: 'ready'; url: string } | { type: 'failed'; message: string };

/** Whether this process is a worker the primary of `waybill serve --workers` forked. */
export function isServeWorker(): boolean {
  return cluster.isWorker && process.env[WORKER_ENV] === '1';
}

/** What a worker is started with: the command line's, parsed as the primary parsed it. */
export interface WorkerOptions {
  /** Opens the store, a failure made the one line the user reads (serve.ts's: the password masked). */
  openStore: () => Promise<Store>;
  host: string;
  port: number;
  quiet: boolean;
  logRetention: number;
  /** Turns a failure to listen into the one line the user reads (serve.ts's). */
  explainListenError: (error: unknown) => unknown;
}

// requirement: D83
/** Runs a worker until it is told to stop; resolves to its exit code, its channel to the primary closed (which would keep the process alive). */
export async function runWorker(options: WorkerOptions): Promise<number> {
  try {
    return await serveUntilStopped(options);
  } finally {
    if (process.connected) process.disconnect();
  }
}

/** The worker's life: asks for its start, serves, drains when told to stop. */
async function serveUntilStopped(options: WorkerOptions): Promise<number> {
  const send = (message: FromWorker) => {
    if (process.connected) process.send!(message);
  };
  let started: (adminToken: string) => void = () => {};
  const adminToken = new Promise<string>((resolve) => (started = resolve));
  // The handlers are in place before the primary is asked for anything.
  const stopped = new Promise<void>((resolve) => {
    process.on('message', (message: ToWorker) => {
      if (message.type === 'start') started(message.adminToken);
      else if (message.type === 'stop') resolve();
    });
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
    process.once('disconnect', () => resolve());
  });
  send({ type: 'hello' });
  const token = await Promise.race([adminToken, stopped.then(() => null)]);
  if (token === null) return 0;
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  try {
    sandbox = await startSandbox({
      store: await options.openStore(),
      closeStore: true,
      log: consoleLogger({ quiet: options.quiet }),
      adminToken: token,
      logRetention: options.logRetention,
      host: options.host,
      port: options.port,
    }).catch((error: unknown) => Promise.reject(options.explainListenError(error)));
  } catch (error) {
    send({ type: 'failed', message: error instanceof WaybillError ? error.message : ((error as Error).message ?? String(error)).split('\n')[0]! });
    return 2;
  }
  void warmValidators();
  send({ type: 'ready', url: sandbox.url });
  await stopped;
  await sandbox.close({ graceMs: DRAIN_GRACE_MS });
  return 0;
}
