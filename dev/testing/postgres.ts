/**
 * What every PostgreSQL test shares: the run's throwaway cluster (started once by
 * `postgres-global-setup.ts`, or once per test file where no global setup ran), a fresh
 * database per caller (`CREATE DATABASE` costs milliseconds), and the rule that missing
 * binaries skip the tests with a message but fail them where `WAYBILL_REQUIRE_POSTGRES=1` (CI).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { migrate } from '../../server/store/postgres/migrate.ts';
import { openPool } from '../../server/store/postgres/pool.ts';
import { type Cluster, POSTGRES_ROOT, postgresBinaries, startCluster } from './postgres-cluster.ts';
import { timedStart } from './start-times.ts';

/** How to get PostgreSQL, for the messages of a skip or a failure. */
const REMEDY = "install Debian's postgresql (apt-get install -y postgresql); .ci/run does";

/** Whether this run must have PostgreSQL: `WAYBILL_REQUIRE_POSTGRES=1` (CI) turns a skip into a failure. */
export function postgresRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return env['WAYBILL_REQUIRE_POSTGRES'] === '1';
}

/**
 * True when the PostgreSQL tests of `what` are to be skipped: no binaries, and the run does
 * not require them. Says so on the console, with how to get them.
 */
export function skipWithoutPostgres(what: string, options: { root?: string; required?: boolean } = {}): boolean {
  const root = options.root ?? POSTGRES_ROOT;
  const skip = postgresBinaries(root) === null && !(options.required ?? postgresRequired());
  if (skip) console.warn(`${what} PostgreSQL tests skipped: no PostgreSQL binaries (initdb, pg_ctl) under ${root}/*/bin. To run them, ${REMEDY}; CI sets WAYBILL_REQUIRE_POSTGRES=1 and never skips.`);
  return skip;
}

let own: Promise<Cluster> | undefined;

/** The URL of the run's cluster: the global setup's, else one this test file starts (and `releaseCluster` stops). */
async function clusterUrl(): Promise<string> {
  const provided = inject('postgresUrl');
  if (typeof provided === 'string') return provided;
  if (postgresBinaries() === null) throw new Error(`no PostgreSQL binaries (initdb, pg_ctl) under ${POSTGRES_ROOT}/*/bin: ${REMEDY}`);
  own ??= startCluster();
  return (await own).url;
}

/**
 * A new, empty database of the run's cluster, as a URL: each test file (or test) gets its
 * own. `migrated` copies the run's migrated template instead (milliseconds, where migrating
 * takes a tenth of a second); without a global setup it is migrated here.
 */
export function freshDatabase(options: { migrated?: boolean } = {}): Promise<string> {
  return timedStart('postgres database', () => createDatabase(options));
}

/** `CREATE DATABASE` on the run's cluster, from the template or migrated here (freshDatabase). */
async function createDatabase(options: { migrated?: boolean }): Promise<string> {
  const base = await clusterUrl();
  const name = `waybill_${randomBytes(6).toString('hex')}`;
  const template = options.migrated ? inject('postgresTemplate') : null;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}${typeof template === 'string' ? ` TEMPLATE ${template}` : ''}`);
  } finally {
    await client.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  if (options.migrated && typeof template !== 'string') {
    const pool = openPool(url.toString(), { max: 1 });
    await migrate(pool).finally(() => pool.end());
  }
  return url.toString();
}

/** Stops the cluster this test file started, if it started one (the global setup's outlives the file). */
export async function releaseCluster(): Promise<void> {
  const started = own;
  own = undefined;
  if (started !== undefined) (await started).stop();
}

/** Runs `text` with `values` on the database at `url`, on a connection of its own; answers its rows. */
export async function queryDatabase<T>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}
