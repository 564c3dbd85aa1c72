/** `waybill serve`: the reference sandbox on 127.0.0.1:4000 over a SQLite file, or a PostgreSQL database (`--db postgres://…`). */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Command, Option } from 'commander';
import { parseCommandLine, portNumber } from '../../cli/command-line.ts';
import { ADMIN_TOKEN_FILE, adminTokenFileOf, writeAdminTokenFile } from '../../cli/admin-token-file.ts';
import { surviveBrokenPipes } from '../../cli/broken-pipe.ts';
import { UsageError } from '../../cli/errors.ts';
import { newAdminToken } from '../http/admin-auth.ts';
import { integerFlag } from '../../fixtures/cli.ts';
import { maxSeed } from '../../fixtures/generate.ts';
import { loadStartingDataset, type StartingDataset, startingDataset } from './starting-dataset.ts';
import { seedDemo } from './demo.ts';
import { banner, type StartingData } from './serve-banner.ts';
import { CRASH_LIMIT, CRASH_WINDOW_MS, runPrimary, STOP_BOUND_MS } from './serve-cluster.ts';
import { DRAIN_GRACE_MS, isServeWorker, runWorker } from './serve-worker.ts';
import { warmValidators } from '../http/validate.ts';
import { consoleLogger } from '../http/log.ts';
import { DEFAULT_LOG_RETENTION } from '../request-log/recorder.ts';
import { type DbTarget, parseDbTarget } from '../store/db-target.ts';
import { openStore, type Store } from '../store/index.ts';
import { openPostgresStore } from '../store/postgres/open-store.ts';
import { startSandbox } from './start-sandbox.ts';

const DEFAULT_DB = '.waybill/sandbox.db';

/** The most worker processes `--workers` starts. */
const MAX_WORKERS = 64;

function command(): Command {
  return new Command('waybill serve')
    .description('Run the reference sandbox of the Delivery Integration API.')
    .addOption(new Option('--port <n>', 'port to listen on (0 = any free port)').env('PORT').default(4000).argParser(portNumber(0)))
    .option('--host <host>', 'address to listen on; loopback unless you mean to share it', '127.0.0.1')
    .addOption(new Option('--db <file|url>', "SQLite database file, ':memory:', or a PostgreSQL database: postgres://USER[:PASSWORD]@HOST:PORT/DB").env('WAYBILL_DB').default(DEFAULT_DB))
    .option('--quiet', 'do not log one line per request', false)
    .option('--admin-token-file <path>', `where to leave the admin token for local tools (conformance --provision, client-check), or 'none' (default: ${ADMIN_TOKEN_FILE}; none with --db :memory:)`)
    .addOption(
      new Option('--log-retention <n>', 'request log entries kept per tenant, in the database (0 turns the log off)')
        .default(DEFAULT_LOG_RETENTION)
        .argParser(integerFlag('--log-retention', 0, 10_000_000)),
    )
    .addOption(new Option('--fixtures <file>', 'start from a dataset file `waybill fixtures` wrote, instead of the demo tenant').conflicts('seed'))
    .addOption(new Option('--seed <n>', 'start from the dataset `waybill fixtures --seed <n>` writes (500 orders), made in memory').argParser(integerFlag('--seed', 0, maxSeed)))
    .addOption(new Option('--workers <n>', `processes serving the one port, PostgreSQL only (1 to ${MAX_WORKERS})`).default(1).argParser(integerFlag('--workers', 1, MAX_WORKERS)))
    .addHelpText('after', `
The control plane (/sandbox/v1, the console) takes the admin token the banner prints: a
new one at every start, or the value of env WAYBILL_ADMIN_TOKEN (give every host that
serves one database the same). It is left for local tools in --admin-token-file (mode
0600, an entry for this URL only) and removed at exit.

--fixtures and --seed load the dataset into a tenant of its own, with new API keys
(printed once), into an empty database only: a new file, ':memory:' or a new PostgreSQL
database. Started again on the database it was loaded into, the same dataset finds its
tenant and loads nothing; a database holding anything else is refused. The same dataset
gets the same tenant and order ids on every machine.

The request log keeps, per tenant, the last --log-retention requests to the integration
API made with the tenant's keys (never a key; bodies cut at 16 KiB), for the control
plane's /tenants/{tenantId}/requests and the console: in a file beside the database
(sandbox.db: sandbox.requests.db), or on PostgreSQL in the database itself, in both cases
in the tables request_log_chunk (the entries, in chunks) and request_log_tenants (what
each tenant keeps). It is written in batches every 50 ms: the last batch may be lost if
the process is killed, and is written at a clean stop (SIGTERM, Ctrl-C).

On PostgreSQL (14 or later) the sandbox migrates the database at start, under a lock, so
several processes may start at once; a database a newer waybill migrated is refused.

--workers N (PostgreSQL only) runs N processes on the one port (Node's cluster): the one
you start migrates and seeds the database, forks the workers and prints the banner once;
the workers share everything through the database. A worker that dies is replaced (one
line on stderr); ${CRASH_LIMIT} deaths within ${CRASH_WINDOW_MS / 1000} s end the sandbox with exit 1. SIGTERM or SIGINT
stops every worker taking new connections, lets the answers in progress finish (${DRAIN_GRACE_MS / 1000} s at
most), and exits 0 once all have closed; a worker still running ${STOP_BOUND_MS / 1000} s later is killed.
Several \`waybill serve\` on several machines over one database work as well, behind any
load balancer, with no sticky sessions.

Examples:
  waybill serve
  waybill serve --port 4100 --db :memory:
  PORT=4200 waybill serve --db /tmp/sandbox.db
  waybill fixtures --seed 7 --out data.json && waybill serve --fixtures data.json --db :memory:
  waybill serve --seed 7 --db .waybill/seed-7.db
  waybill serve --log-retention 0
  waybill serve --db :memory: --admin-token-file .waybill/admin-token.json
  waybill serve --db postgres://waybill@127.0.0.1:5432/waybill
  WAYBILL_DB=postgres://waybill:secret@db.internal:5432/sandbox waybill serve --host 0.0.0.0
  waybill serve --workers 4 --db postgres://waybill@127.0.0.1:5432/waybill
`)
    .exitOverride();
}

/** Runs the sandbox until SIGINT or SIGTERM; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const program = command();
  if (!parseCommandLine(program, argv)) return 0;
  // Stopped together with the reader of its output (`… | tee log`, Ctrl-C), it still stops cleanly.
  surviveBrokenPipes();
  const options = program.opts<{ port: number; host: string; db: string; quiet: boolean; logRetention: number; fixtures?: string; seed?: number; adminTokenFile?: string; workers: number }>();
  const parsed = parseDbTarget(options.db);
  if (!parsed.ok) throw new UsageError(parsed.message);
  const target = parsed.target;
  // A new database file is made; a new folder tree from a mistyped path is not (waybill's own .waybill/ is).
  if (target.engine === 'sqlite' && target.file !== ':memory:' && dirname(resolve(target.file)) !== resolve(dirname(DEFAULT_DB)) && !existsSync(dirname(resolve(target.file)))) {
    throw new UsageError(`--db ${target.file}: the folder ${dirname(resolve(target.file))} does not exist; create it first (a new database file is made in a folder that exists)`);
  }
  // requirement: D83
  if (options.workers > 1 && target.engine === 'sqlite') {
    throw new UsageError(`--workers ${options.workers}: a SQLite database is served by one process (its file takes one writer at a time); run several workers on PostgreSQL (--db postgres://…), or leave --workers out`);
  }
  if (isServeWorker()) {
    const { host, port, quiet, logRetention } = options;
    return runWorker({ openStore: () => openStoreOrExplain(target), host, port, quiet, logRetention, explainListenError: (error) => listenError(error, options) });
  }
  // What banners and messages name: the file, or the URL with its password masked.
  const db = target.engine === 'sqlite' ? target.file : target.shown;
  const tokenFile = adminTokenFileOf(options.adminTokenFile, db);
  // A bad dataset file is refused before the database file is created.
  const dataset = startingDataset(options);
  const store = await openStoreOrExplain(target);
  let start: StartingData;
  try {
    start = await startingData(store, dataset, db);
  } catch (error) {
    await store.close();
    throw error;
  }
  const adminToken = process.env['WAYBILL_ADMIN_TOKEN'] || newAdminToken();
  if (options.workers > 1) {
    // The database is migrated and seeded: the workers open it themselves.
    await store.close();
    return runPrimary({
      workers: options.workers,
      adminToken,
      ready(url, pids) {
        const removeTokenFile = leaveTokenFile(url, adminToken, tokenFile);
        process.stdout.write(banner(url, db, start, adminToken, tokenFile, pids));
        return removeTokenFile;
      },
    });
  }
  const sandbox = await startSandbox({
    store,
    closeStore: true,
    log: consoleLogger({ quiet: options.quiet }),
    adminToken,
    logRetention: options.logRetention,
    host: options.host,
    port: options.port,
  }).catch((error: unknown) => Promise.reject(listenError(error, options)));
  const { url } = sandbox;
  // Compile the request validators now, a step per event-loop turn, rather than on each operation's first request.
  void warmValidators();
  let removeTokenFile = () => {};
  try {
    removeTokenFile = leaveTokenFile(url, adminToken, tokenFile);
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  // However the process ends short of SIGKILL, the token's entry goes with it (removing it twice is harmless).
  process.once('exit', () => removeTokenFile());
  // The signal handlers are in place before the banner tells anyone the sandbox is up.
  const stopped = new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  process.stdout.write(banner(url, db, start, adminToken, tokenFile));
  process.stdout.write(`\n${await stopped}: shutting down\n`);
  // Answers in progress get two seconds to finish.
  await sandbox.close({ graceMs: DRAIN_GRACE_MS });
  removeTokenFile();
  return 0;
}

/** A failure to listen as the one line the user reads; any other error as it is. */
function listenError(error: unknown, options: { port: number; host: string }): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return new UsageError(`port ${options.port} on ${options.host} is in use; pick another with --port`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new UsageError(`cannot listen on ${options.host}`);
  return error;
}

// requirement: D45
/** Leaves the admin token for local tools in `tokenFile` (none when null); answers how to remove it at the end. */
function leaveTokenFile(url: string, adminToken: string, tokenFile: string | null): () => void {
  if (tokenFile === null) return () => {};
  try {
    return writeAdminTokenFile(url, adminToken, tokenFile);
  } catch (error) {
    throw new UsageError(`--admin-token-file ${tokenFile}: cannot write it (${(error as Error).message}); give another path, or none`);
  }
}

// requirement: D78
/**
 * Opens the database, turning one that cannot be used into a one-line usage error naming it:
 * a file SQLite cannot use; a PostgreSQL server that cannot be reached or refuses the
 * connection, or a database a newer waybill migrated (its password never shown).
 */
async function openStoreOrExplain(target: DbTarget): Promise<Store> {
  if (target.engine === 'postgres') {
    try {
      return await openPostgresStore(target.url);
    } catch (error) {
      const password = decodeURIComponent(new URL(target.url).password);
      const reason = ((error as Error).message || String((error as { code?: unknown }).code ?? error)).split('\n')[0]!;
      throw new UsageError(`--db ${target.shown}: ${password === '' ? reason : reason.replaceAll(password, '***')}`);
    }
  }
  try {
    return await openStore(target.file);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('SQLITE_') || code.startsWith('E'))) {
      const reason = code === 'SQLITE_NOTADB' ? 'not a SQLite database' : (error as Error).message;
      throw new UsageError(`--db ${target.file}: ${reason} (give another file, or ':memory:')`);
    }
    throw error;
  }
}

/** Seeds the demo tenant into an empty database, or loads the dataset asked for. */
async function startingData(store: Store, dataset: StartingDataset | null, db: string): Promise<StartingData> {
  if (dataset !== null) {
    const tenant = await loadStartingDataset(store, dataset, db);
    if (tenant === null) {
      return { tenantId: dataset.tenantId, note: `${dataset.label}: already loaded into tenant ${dataset.tenantId}; its API keys were printed then (delete the file, or drop the database, to start over)` };
    }
    const headline = `loaded ${dataset.label} into tenant ${tenant.tenantId}: ${tenant.orders} orders, ${tenant.trips} trips`;
    return { tenantId: tenant.tenantId, seeded: { headline, keysTitle: 'its API keys', tenant } };
  }
  const tenants = await store.tenants.list();
  if (tenants.length === 0) {
    const tenant = await seedDemo(store);
    const headline = `created the demo tenant ${tenant.tenantId}: ${tenant.orders} orders, ${tenant.trips} trips`;
    return { tenantId: tenant.tenantId, seeded: { headline, keysTitle: 'demo API keys', tenant } };
  }
  return { tenantId: tenants[0]!.id, note: 'existing database: its demo keys were printed when it was created; delete the file (or drop the database) to start over.' };
}
