/**
 * The vitest global setup of the PostgreSQL tests: one throwaway cluster for the whole run,
 * its URL provided to every test file (`inject('postgresUrl')`), stopped and removed when
 * the run ends. Vitest runs it only when the run holds a test of the project naming it.
 */
import type { TestProject } from 'vitest/node';
import { postgresBinaries, startCluster } from './postgres-cluster.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's throwaway cluster, `postgres://postgres@127.0.0.1:PORT/postgres`; null when the machine has no binaries. */
    postgresUrl: string | null;
  }
}

/** Starts the run's cluster; the test files skip or fail on their own where there are no binaries. */
export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  if (postgresBinaries() === null) {
    project.provide('postgresUrl', null);
    return undefined;
  }
  const cluster = await startCluster();
  project.provide('postgresUrl', cluster.url);
  return () => cluster.stop();
}
