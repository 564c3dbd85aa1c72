/**
 * The reference sandbox in the three configurations a loaded run tests, each with database
 * latency it can switch on (latency.ts): SQLite in this process, its `Sql` slowed (slow-sql.ts);
 * PostgreSQL behind a latency proxy (slow-proxy.ts) served by `waybill serve` as one process, or
 * as `--workers 2`, each a child process as a user runs it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../../server/http/log.ts';
import { startSandbox } from '../../server/start/start-sandbox.ts';
import { openDatabase } from '../../server/store/db.ts';
import { makeStore } from '../../server/store/index.ts';
import { sqliteSql } from '../../server/store/sqlite-sql.ts';
import { type Latency, uniformLatency } from './latency.ts';
import { slowSqliteSql } from './slow-sql.ts';
import { startSlowProxy } from './slow-proxy.ts';

/** The configurations: SQLite in one process, PostgreSQL in one process, PostgreSQL with two workers. */
export const CONFIGURATIONS = ['sqlite', 'postgres', 'workers'] as const;
export type Configuration = (typeof CONFIGURATIONS)[number];

/** A running sandbox whose database answers with `latency` while it is on. */
export interface LoadedTarget {
  configuration: Configuration;
  url: string;
  adminToken: string;
  latency: Latency;
  /** What the sandbox wrote to its error log (an answer 500, a crash) so far. */
  serverErrors(): string[];
  close(): Promise<void>;
}

const ADMIN_TOKEN = 'wba_loaded-suite-admin-token';
const bin = fileURLToPath(new URL('../../bin/waybill.js', import.meta.url));

/** The reference on a SQLite file of a new folder, in this process, every statement slowed by `latency`. */
async function startSqliteTarget(latency: Latency): Promise<LoadedTarget> {
  const dir = mkdtempSync(join(tmpdir(), 'waybill-load-'));
  const sql = slowSqliteSql(sqliteSql(openDatabase(join(dir, 'sandbox.db'))), latency);
  const store = { ...(await makeStore(sql)), sql, db: sql.db };
  const errors: string[] = [];
  const log: Logger = { requests: false, info: () => undefined, error: (line) => errors.push(line) };
  const sandbox = await startSandbox({ store, closeStore: true, adminToken: ADMIN_TOKEN, log });
  return {
    configuration: 'sqlite',
    url: sandbox.url,
    adminToken: ADMIN_TOKEN,
    latency,
    serverErrors: () => [...errors],
    async close() {
      latency.release();
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * `waybill serve --db database --workers N` in a child process; resolves once its banner is out.
 * Not dev/testing/serve-child.ts's `serve`: on a machine this busy the banner may take longer
 * than its 30 s, and a harness that exits early must take the child along.
 */
async function serveChild(database: string, workers: number, cwd: string): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--quiet', '--admin-token-file', 'none', '--workers', String(workers), '--db', database], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, WAYBILL_FROM_SOURCES: '1', WAYBILL_ADMIN_TOKEN: ADMIN_TOKEN },
  });
  // A harness that exits without closing its target (a test runner stopped) takes the sandbox along; its workers leave with it.
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  child.once('exit', () => process.off('exit', kill));
  let out = '';
  let err = '';
  child.stderr!.on('data', (chunk) => (err += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`waybill serve printed no banner within 120 s: ${out}${err}`));
    }, 120_000);
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const listening = /listening on (\S+)\n[\s\S]*\n\n/.exec(out);
      if (listening === null) return;
      clearTimeout(timer);
      resolve(listening[1]!);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`waybill serve exited (${code}) before listening: ${out}${err}`));
    });
  });
  child.stdout!.resume();
  return { child, url, stderr: () => err };
}

/** Stops a `waybill serve` child (SIGTERM drains its workers), killing it when it has not exited within 15 s. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
  child.kill('SIGTERM');
  await exited;
  clearTimeout(kill);
}

/** `waybill serve` over the empty PostgreSQL database `database`, through a latency proxy, with `workers` processes. */
async function startPostgresTarget(configuration: Configuration, database: string, latency: Latency): Promise<LoadedTarget> {
  const dir = mkdtempSync(join(tmpdir(), 'waybill-load-'));
  const proxy = await startSlowProxy(database, latency);
  try {
    const served = await serveChild(proxy.url, configuration === 'workers' ? 2 : 1, dir);
    return {
      configuration,
      url: served.url,
      adminToken: ADMIN_TOKEN,
      latency,
      serverErrors: () => served.stderr().split('\n').filter((line) => line.trim() !== ''),
      async close() {
        await stopChild(served.child);
        await proxy.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await proxy.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Starts the sandbox of `configuration` with a 50–200 ms latency, switched off; the PostgreSQL
 * ones need `database`, the URL of an empty database (the sandbox migrates it as it starts).
 */
export function startLoadedTarget(configuration: Configuration, database?: string): Promise<LoadedTarget> {
  const latency = uniformLatency(50, 200);
  if (configuration === 'sqlite') return startSqliteTarget(latency);
  if (database === undefined) throw new Error(`the ${configuration} configuration needs a PostgreSQL database`);
  return startPostgresTarget(configuration, database, latency);
}
