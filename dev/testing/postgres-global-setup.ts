/**
 * The vitest global setup of the PostgreSQL tests: one throwaway cluster for the whole run,
 * its URL provided to every test file (`inject('postgresUrl')`), stopped and removed when
 * the run ends. Vitest runs it only when the run holds a test of the project naming it.
 */
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrate } from '../../server/store/postgres/migrate.ts';
import { openPool } from '../../server/store/postgres/pool.ts';
import { postgresBinaries, startCluster } from './postgres-cluster.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's throwaway cluster, `postgres://postgres@127.0.0.1:PORT/postgres`; null when the machine has no binaries. */
    postgresUrl: string | null;
    /** A database of that cluster migrated to the current schema, to copy a test's store from (`CREATE DATABASE … TEMPLATE`); null without binaries. */
    postgresTemplate: string | null;
  }
}

/** The name of the run's migrated template database. */
export const TEMPLATE_DATABASE = 'waybill_template';

/** Makes the migrated template database on the cluster at `url`; no connection to it stays open (a template must have none). */
async function makeTemplate(url: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  } finally {
    await admin.end();
  }
  const target = new URL(url);
  target.pathname = `/${TEMPLATE_DATABASE}`;
  const pool = openPool(target.toString(), { max: 1 });
  try {
    await migrate(pool);
  } finally {
    await pool.end();
  }
}

/** Starts the run's cluster; the test files skip or fail on their own where there are no binaries. */
export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  if (postgresBinaries() === null) {
    project.provide('postgresUrl', null);
    project.provide('postgresTemplate', null);
    return undefined;
  }
  const cluster = await startCluster();
  try {
    await makeTemplate(cluster.url);
  } catch (error) {
    cluster.stop();
    throw error;
  }
  project.provide('postgresUrl', cluster.url);
  project.provide('postgresTemplate', TEMPLATE_DATABASE);
  return () => cluster.stop();
}
