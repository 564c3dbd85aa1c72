/**
 * A throwaway PostgreSQL cluster for the tests, made from the machine's own binaries
 * (`/usr/lib/postgresql/<version>/bin`, the newest): `initdb` into a temporary folder,
 * `pg_ctl start` on a free port of 127.0.0.1 only, and on stop the server killed and the
 * folder removed. PostgreSQL refuses to run as root, so under root every binary runs as the
 * `postgres` user (uid and gid of the spawned process, as `su postgres` would give).
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { timedStart } from './start-times.ts';

/** Where Debian (and Ubuntu) install PostgreSQL, one folder per major version. */
export const POSTGRES_ROOT = '/usr/lib/postgresql';

/** A running throwaway cluster. */
export interface Cluster {
  /** `postgres://postgres@127.0.0.1:PORT/postgres` (trust authentication: no password). */
  url: string;
  /** Major version of the binaries it runs. */
  version: string;
  /** Stops the server at once and removes its folder. Safe to call twice. */
  stop(): void;
}

/** The newest `bin` folder under `root` holding `initdb` and `pg_ctl`, or null when there is none. */
export function postgresBinaries(root = POSTGRES_ROOT): { bin: string; version: string } | null {
  let versions: string[];
  try {
    versions = readdirSync(root);
  } catch {
    return null;
  }
  const usable = versions
    .filter((version) => /^\d+(\.\d+)?$/.test(version))
    .filter((version) => existsSync(join(root, version, 'bin', 'initdb')) && existsSync(join(root, version, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  const newest = usable[0];
  return newest === undefined ? null : { bin: join(root, newest, 'bin'), version: newest };
}

/** The uid and gid binaries run as: the `postgres` user's under root, else none (the current user's). */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const ids = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  const uid = ids('-u');
  const gid = ids('-g');
  if (uid.status !== 0 || gid.status !== 0) {
    throw new Error("running as root, and there is no 'postgres' user to run PostgreSQL as (initdb refuses root); Debian's postgresql package makes one");
  }
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** A port of 127.0.0.1 that was free a moment ago. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Settings of a cluster that lives for one test run: reachable on loopback only, and fast rather than durable. */
function settings(port: number, dir: string, extra: readonly string[]): string {
  return [
    '',
    '# waybill test cluster (dev/testing/postgres-cluster.ts)',
    `port = ${port}`,
    "listen_addresses = '127.0.0.1'",
    `unix_socket_directories = '${dir}'`,
    // A crash of the machine loses the cluster with its folder anyway: no flush is worth waiting for.
    'fsync = off',
    'synchronous_commit = off',
    'full_page_writes = off',
    'max_connections = 200',
    'shared_buffers = 32MB',
    ...extra,
    '',
  ].join('\n');
}

/**
 * Starts a throwaway cluster from the newest binaries, with `settings` (lines of
 * postgresql.conf) after the test settings: the bench's larger cache. Throws, saying why, when there are
 * none or they fail; the caller decides whether that skips or fails its tests.
 */
export function startCluster(options: { root?: string; settings?: readonly string[] } = {}): Promise<Cluster> {
  return timedStart('postgres cluster', () => initAndStart(options));
}

/** `initdb` and `pg_ctl start` of a new cluster (startCluster). */
async function initAndStart(options: { root?: string; settings?: readonly string[] }): Promise<Cluster> {
  const found = postgresBinaries(options.root);
  if (found === null) throw new Error(`no PostgreSQL binaries (initdb, pg_ctl) under ${options.root ?? POSTGRES_ROOT}/*/bin`);
  const user = runAs();
  const dir = mkdtempSync(join(tmpdir(), 'waybill-pg-'));
  if (user !== undefined) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  const logFile = join(dir, 'server.log');
  const run = (tool: string, args: string[]): SpawnSyncReturns<string> =>
    spawnSync(join(found.bin, tool), args, { encoding: 'utf8', cwd: dir, ...user, env: { ...process.env, LC_ALL: 'C' } });
  const fail = (what: string, result: SpawnSyncReturns<string>): never => {
    const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`${what} failed (${result.error?.message ?? `exit ${result.status}`}): ${(result.stderr + log).trim().slice(-2000)}`);
  };
  const init = run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  if (init.status !== 0) fail('initdb', init);
  // Another process may take the free port before the server binds it: try a few.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    appendFileSync(join(data, 'postgresql.conf'), settings(port, dir, options.settings ?? []));
    const start = run('pg_ctl', ['-D', data, '-l', logFile, '-w', '-t', '60', 'start']);
    if (start.status === 0) {
      let stopped = false;
      const stop = () => {
        if (stopped) return;
        stopped = true;
        process.off('exit', stop);
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
        rmSync(dir, { recursive: true, force: true });
      };
      // A test run that ends without its teardown still leaves no server or folder behind.
      process.on('exit', stop);
      return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, version: found.version, stop };
    }
    const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
    if (attempt >= 3 || !/could not bind|already in use/i.test(log)) fail('pg_ctl start', start);
  }
}
