/** `waybill serve`: the reference sandbox on 127.0.0.1:4000 over a SQLite file, or a PostgreSQL database (`--db postgres://…`). */
import { Command, Option } from 'commander';
import { parseCommandLine, portNumber } from '../../cli/command-line.ts';
import { ADMIN_TOKEN_FILE, adminTokenFileOf, writeAdminTokenFile } from '../../cli/admin-token-file.ts';
import { UsageError } from '../../cli/errors.ts';
import { newAdminToken } from '../http/admin-auth.ts';
import { integerFlag } from '../../fixtures/cli.ts';
import { maxSeed } from '../../fixtures/generate.ts';
import { loadStartingDataset, type StartingDataset, startingDataset } from './starting-dataset.ts';
import { type SeededTenant, seedDemo } from './demo.ts';
import { warmValidators } from '../http/validate.ts';
import { consoleLogger } from '../http/log.ts';
import { DEFAULT_LOG_RETENTION } from '../request-log/recorder.ts';
import { type DbTarget, parseDbTarget } from '../store/db-target.ts';
import { openStore, type Store } from '../store/index.ts';
import { openPostgresStore } from '../store/postgres/open-store.ts';
import { startSandbox } from './start-sandbox.ts';

const DEFAULT_DB = '.waybill/sandbox.db';

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
    .addHelpText('after', `
--fixtures and --seed load the dataset into a tenant of its own, with new API keys
(printed once), into an empty database only: a new file, ':memory:' or a new PostgreSQL
database. Started again
on the database it was loaded into, the same dataset finds its tenant and loads
nothing; a database holding anything else is refused. The same dataset gets the same
tenant and order ids on every machine.

The request log keeps, per tenant, the last --log-retention requests to the integration
API made with the tenant's keys (never a key; bodies cut at 16 KiB), for the control
plane's /tenants/{tenantId}/requests and the console, in a file beside the database
(sandbox.db: sandbox.requests.db), or on PostgreSQL in the database's request_log table.
It is written in batches every 50 ms: the last batch may be lost if the process is killed.

On PostgreSQL (14 or later) the sandbox migrates the database at start, under a lock, so
several processes may start at once; a database a newer waybill migrated is refused.

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
`)
    .exitOverride();
}

/** Runs the sandbox until SIGINT or SIGTERM; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const program = command();
  if (!parseCommandLine(program, argv)) return 0;
  const options = program.opts<{ port: number; host: string; db: string; quiet: boolean; logRetention: number; fixtures?: string; seed?: number; adminTokenFile?: string }>();
  const parsed = parseDbTarget(options.db);
  if (!parsed.ok) throw new UsageError(parsed.message);
  const target = parsed.target;
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
  const sandbox = await startSandbox({
    store,
    closeStore: true,
    log: consoleLogger({ quiet: options.quiet }),
    adminToken: process.env['WAYBILL_ADMIN_TOKEN'] || newAdminToken(),
    logRetention: options.logRetention,
    host: options.host,
    port: options.port,
  }).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`port ${options.port} on ${options.host} is in use; pick another with --port`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new UsageError(`cannot listen on ${options.host}`);
    throw error;
  });
  const { url, adminToken } = sandbox;
  // Compile the request validators now, a step per event-loop turn, rather than on each operation's first request.
  void warmValidators();
  let removeTokenFile = () => {};
  try {
    // requirement: D45
    if (tokenFile !== null) removeTokenFile = writeAdminTokenFile(url, adminToken, tokenFile);
  } catch (error) {
    await sandbox.close();
    throw new UsageError(`--admin-token-file ${tokenFile}: cannot write it (${(error as Error).message}); give another path, or none`);
  }
  // The signal handlers are in place before the banner tells anyone the sandbox is up.
  const stopped = new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  process.stdout.write(banner(url, db, start, adminToken, tokenFile));
  process.stdout.write(`\n${await stopped}: shutting down\n`);
  // Answers in progress get two seconds to finish.
  await sandbox.close({ graceMs: 2000 });
  // requirement: D45
  removeTokenFile();
  return 0;
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

/** What the sandbox starts with: the tenant it seeded (with keys to show) or the one it found. */
interface StartingData {
  tenantId: string | null;
  seeded?: { headline: string; keysTitle: string; tenant: SeededTenant };
  note?: string;
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

// requirement: D64
/**
 * What the sandbox prints when it is ready. The console link carries the admin token in its
 * fragment, which a browser keeps to itself (never sent, never a Referer); the console takes
 * it out of the address at once (D64).
 */
function banner(url: string, db: string, start: StartingData, adminToken: string, tokenFile: string | null): string {
  const fixed = process.env['WAYBILL_ADMIN_TOKEN'] ? 'from WAYBILL_ADMIN_TOKEN' : 'new at every start; set WAYBILL_ADMIN_TOKEN to fix it';
  const left = tokenFile === null
    ? `not left in a file${db === ':memory:' ? ' (--db :memory:)' : ''}; --admin-token-file PATH leaves it for local tools`
    : `left for local tools in ${tokenFile}`;
  const lines = [
    `waybill sandbox listening on ${url}`,
    `  console: ${url}/console#token=${encodeURIComponent(adminToken)}  (signs you in; what follows # never leaves the browser)`,
    `  API reference: ${url}/docs  (documents: ${url}/openapi.yaml, ${url}/sandbox.yaml; health: ${url}/health)`,
    `  integration API: ${url}/api/v1/integration`,
    `  database: ${db}`,
    `  control plane: ${url}/sandbox/v1  admin token: ${adminToken}  (${fixed}; ${left})`,
    `  create a key: curl -s -X POST -H 'Authorization: Bearer ${adminToken}' -H 'Content-Type: application/json' -d '{"name":"my-key","scopes":["orders:read","orders:write","trips:read"]}' '${url}/sandbox/v1/tenants/${start.tenantId ?? '<tenant id>'}/keys'`,
  ];
  if (start.seeded !== undefined) {
    const { headline, keysTitle, tenant } = start.seeded;
    lines.push(
      `  ${headline}`,
      `  ${keysTitle} (shown once; only their hashes are stored):`,
      ...tenant.keys.map((key) => `    ${key.name.padEnd(22)} ${key.secret}  [${key.scopes.join(' ') || 'no scopes'}]`),
      '',
      '  try it:',
      `    curl -s -H 'X-Api-Key: ${tenant.keys[0]!.secret}' '${url}/api/v1/integration/orders?limit=2'`,
    );
  }
  if (start.note !== undefined) lines.push(`  ${start.note}`);
  return `${lines.join('\n')}\n\n`;
}
