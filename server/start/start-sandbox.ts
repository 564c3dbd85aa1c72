/**
 * The one way a sandbox starts and stops: the store, the request log, the app and the HTTP
 * server, and the close sequence that undoes them in order. `waybill serve`, the tests,
 * client-check's own sandbox, the bench and the suite's proof all start it here.
 */
import type { Server } from 'node:http';
import { newAdminToken } from '../http/admin-auth.ts';
import { consoleLogger } from '../http/log.ts';
import { createHttpServer, listen } from '../http/server.ts';
import { makePostgresRequestLog } from '../request-log/postgres-log.ts';
import { DEFAULT_LOG_RETENTION, makeRequestLog, type RequestLog, type RequestLogOptions } from '../request-log/recorder.ts';
import { simulationOf } from '../simulation/runner.ts';
import type { SqliteStore, Store } from '../store/index.ts';
import { openStoreAt } from '../store/open-target.ts';
import type { PostgresSql } from '../store/postgres/sql.ts';
import { type AppOptions, createApp, type SandboxApp } from './app.ts';

/** What a sandbox is started with; everything but the store has a default. */
export interface SandboxOptions extends Omit<AppOptions, 'store' | 'requestLog'> {
  /** A database to open (a `--db` value: a SQLite file, `:memory:` or a `postgres://` URL), or a store its opener keeps open after `close`, unless `closeStore`. */
  store: string | Store;
  /** Whether `close` closes a store that was handed in (a path or `:memory:` is always closed). Default false. */
  closeStore?: boolean;
  /** A request log the caller made and closes, or null for none. Default: the sandbox's own, keeping `logRetention` entries per tenant. */
  requestLog?: RequestLog | null;
  /** How many entries per tenant the sandbox's own request log keeps; 0 starts none. Default 10,000. */
  logRetention?: number;
  /** Default 127.0.0.1: loopback unless the caller means to share it. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** What the HTTP server calls instead of the app (an answer rewritten in the suite's proof); it must keep the app's `request` and `response`. */
  around?: (app: SandboxApp) => SandboxApp;
  /** A change to the HTTP server before it listens (another server's HTTP layer, in the suite's proof). */
  beforeListen?: (server: Server) => void;
}

/** A sandbox that answers at `url` until closed. */
export interface RunningSandbox {
  url: string;
  server: Server;
  store: Store;
  /** The control plane's token: the one asked for, or a new random one. */
  adminToken: string;
  requestLog: RequestLog | null;
  /**
   * Stops answering and closes what the sandbox opened: the server (idle connections at once,
   * answers in progress given `graceMs`, default 0), then the request log's waiting entries are
   * written, then the simulation's timer and the database close.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

/** The sandbox's own request log (D48): on SQLite a file beside the database file, on PostgreSQL a table of its database. */
export function openRequestLog(store: Store, options: RequestLogOptions = {}): RequestLog {
  if (store.sql.engine === 'postgres') return makePostgresRequestLog(store.sql as PostgresSql, options);
  if (!('db' in store)) throw new Error('a SQLite store without its connection: the request log cannot find the database file');
  return makeRequestLog((store as SqliteStore).db.name, options);
}

/** Starts a sandbox on `host:port`; a failure to listen closes what was opened and rejects with the listen error. */
export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const ownsStore = typeof options.store === 'string' || options.closeStore === true;
  const store = typeof options.store === 'string' ? await openStoreAt(options.store) : options.store;
  const retention = options.logRetention ?? DEFAULT_LOG_RETENTION;
  const ownsLog = options.requestLog === undefined && retention > 0;
  const requestLog = options.requestLog !== undefined ? options.requestLog : ownsLog ? openRequestLog(store, { retention }) : null;
  const adminToken = options.adminToken ?? newAdminToken();
  const app = await createApp({
    store,
    requestLog,
    adminToken,
    log: options.log ?? consoleLogger(),
    bodyIdleTimeoutMs: options.bodyIdleTimeoutMs,
    consoleDir: options.consoleDir,
  });
  const server = createHttpServer(options.around ? options.around(app) : app);
  options.beforeListen?.(server);

  // The entries still waiting are written before the database they came from closes.
  const closeRest = async () => {
    if (ownsLog) await requestLog?.close();
    if (ownsStore) {
      await simulationOf(store).close();
      await store.close();
    }
  };
  let url: string;
  try {
    url = await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
  } catch (error) {
    await closeRest();
    throw error;
  }
  return {
    url,
    server,
    store,
    adminToken,
    requestLog,
    async close({ graceMs = 0 } = {}) {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if (graceMs === 0) server.closeAllConnections();
        else {
          server.closeIdleConnections();
          setTimeout(() => server.closeAllConnections(), graceMs).unref();
        }
      });
      await closeRest();
    },
  };
}
