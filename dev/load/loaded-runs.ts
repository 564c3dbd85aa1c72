/**
 * Runs of the conformance suite against one configuration of the reference under load: its
 * sandbox started once (targets.ts), then `runs` runs one after the other, each on a fresh
 * profile (run-suite.ts), as a vendor runs the suite again and again against one sandbox.
 * The CPU burners (cpu-load.ts) are the caller's, shared by the configurations it runs at once.
 */
import { join } from 'node:path';
import { type LoadedRun, runLoadedSuite } from './run-suite.ts';
import { type Configuration, startLoadedTarget } from './targets.ts';

/** The default number of runs per configuration; `WAYBILL_LOAD_RUNS` changes it. */
export const DEFAULT_RUNS = 5;

/** The number of runs per configuration `env` asks for (`WAYBILL_LOAD_RUNS`, a positive integer), else `DEFAULT_RUNS`. */
export function loadRuns(env: NodeJS.ProcessEnv = process.env): number {
  const value = env['WAYBILL_LOAD_RUNS'];
  if (value === undefined || value === '') return DEFAULT_RUNS;
  if (!/^[1-9]\d*$/.test(value)) throw new Error(`WAYBILL_LOAD_RUNS=${value}: expected a positive integer`);
  return Number(value);
}

/** What the runs of one configuration gave. */
export interface ConfigurationRuns {
  configuration: Configuration;
  runs: LoadedRun[];
  /** What the sandbox logged as errors over all its runs (a 500's stack, a worker that died). */
  serverErrors: string[];
}

/**
 * Starts the sandbox of `configuration` (on `database` for PostgreSQL) and runs the suite
 * against it `runs` times, the reports in `dir`; `onRun` hears of each run as it ends.
 */
export async function runConfiguration(
  configuration: Configuration,
  runs: number,
  options: { dir: string; database?: string; onRun?: (run: LoadedRun, index: number) => void },
): Promise<ConfigurationRuns> {
  const target = await startLoadedTarget(configuration, options.database);
  const done: LoadedRun[] = [];
  try {
    for (let index = 0; index < runs; index++) {
      const run = await runLoadedSuite(target, join(options.dir, `${configuration}-${index + 1}`), `load-${configuration}-${index + 1}`);
      done.push(run);
      options.onRun?.(run, index);
    }
    return { configuration, runs: done, serverErrors: target.serverErrors() };
  } finally {
    await target.close();
  }
}
