/** `waybill serve`: the reference sandbox on 127.0.0.1:4000 over a SQLite file. */
import { Command, Option } from 'commander';
import { parseCommandLine, portNumber } from '../bin/command-line.ts';
import { writeAdminTokenFile } from '../bin/admin-token-file.ts';
import { UsageError } from '../bin/errors.ts';
import { createApp } from './app.ts';
import { newAdminToken } from './http/admin-auth.ts';
import { seedDemo } from './demo.ts';
import { createHttpServer, listen } from './http-server.ts';
import { consoleLogger } from './log.ts';
import { openStore } from './store/index.ts';

const DEFAULT_DB = '.waybill/sandbox.db';

function command(): Command {
  return new Command('waybill serve')
    .description('Run the reference sandbox of the Delivery Integration API.')
    .addOption(new Option('--port <n>', 'port to listen on (0 = any free port)').env('PORT').default(4000).argParser(portNumber(0)))
    .option('--host <host>', 'address to listen on; loopback unless you mean to share it', '127.0.0.1')
    .option('--db <file>', "SQLite database file, or ':memory:'", DEFAULT_DB)
    .option('--quiet', 'do not log one line per request', false)
    .addHelpText('after', `\nExamples:\n  waybill serve\n  waybill serve --port 4100 --db :memory:\n  PORT=4200 waybill serve --db /tmp/sandbox.db\n`)
    .exitOverride()
    // Commander's errors become a UsageError, printed once by the dispatcher.
    .configureOutput({ outputError: () => {} });
}

/** Runs the sandbox until SIGINT or SIGTERM; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const program = command();
  if (!parseCommandLine(program, argv)) return 0;
  const options = program.opts<{ port: number; host: string; db: string; quiet: boolean }>();
  const log = consoleLogger({ quiet: options.quiet });
  const store = openStoreOrExplain(options.db);
  const demo = store.tenants.list().length === 0 ? seedDemo(store) : null;
  const adminToken = process.env['WAYBILL_ADMIN_TOKEN'] || newAdminToken();
  const server = createHttpServer(createApp({ store, log, adminToken }));
  let url: string;
  try {
    url = await listen(server, options.port, options.host);
  } catch (error) {
    store.db.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`port ${options.port} on ${options.host} is in use; pick another with --port`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new UsageError(`cannot listen on ${options.host}`);
    throw error;
  }
  const tenantId = demo?.tenantId ?? store.tenants.list()[0]?.id ?? null;
  const removeTokenFile = writeAdminTokenFile(url, adminToken);
  process.stdout.write(banner(url, options.db, demo, { adminToken, tenantId }));
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      process.stdout.write(`\n${signal}: shutting down\n`);
      server.close(() => resolve());
      server.closeIdleConnections();
      setTimeout(() => server.closeAllConnections(), 2000).unref();
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  removeTokenFile();
  store.db.close();
  return 0;
}

/** Opens the database, turning a file SQLite cannot use into a one-line usage error naming it. */
function openStoreOrExplain(db: string): ReturnType<typeof openStore> {
  try {
    return openStore(db);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('SQLITE_') || code.startsWith('E'))) {
      const reason = code === 'SQLITE_NOTADB' ? 'not a SQLite database' : (error as Error).message;
      throw new UsageError(`--db ${db}: ${reason} (give another file, or ':memory:')`);
    }
    throw error;
  }
}

/** What the sandbox prints when it is ready. */
function banner(url: string, db: string, demo: ReturnType<typeof seedDemo> | null, control: { adminToken: string; tenantId: string | null }): string {
  const fixed = process.env['WAYBILL_ADMIN_TOKEN'] ? 'from WAYBILL_ADMIN_TOKEN' : 'new at every start; set WAYBILL_ADMIN_TOKEN to fix it';
  const lines = [
    `waybill sandbox listening on ${url}`,
    `  database: ${db}`,
    `  control plane: ${url}/sandbox/v1  admin token: ${control.adminToken}  (${fixed})`,
    `  create a key: curl -s -X POST -H 'Authorization: Bearer ${control.adminToken}' -H 'Content-Type: application/json' -d '{"name":"my-key","scopes":["orders:read","orders:write","trips:read"]}' '${url}/sandbox/v1/tenants/${control.tenantId ?? '<tenant id>'}/keys'`,
  ];
  if (demo !== null) {
    const full = demo.keys[0]!;
    lines.push(
      `  created the demo tenant ${demo.tenantId}: ${demo.orders} orders, ${demo.trips} trips`,
      '  demo API keys (shown once; only their hashes are stored):',
      ...demo.keys.map((key) => `    ${key.name.padEnd(18)} ${key.secret}  [${key.scopes.join(' ') || 'no scopes'}]`),
      '',
      '  try it:',
      `    curl -s -H 'X-Api-Key: ${full.secret}' '${url}/api/v1/integration/orders?limit=2'`,
    );
  } else {
    lines.push('  existing database: its demo keys were printed when it was created; delete the file to start over.');
  }
  return `${lines.join('\n')}\n\n`;
}
