/**
 * The loaded runs from the command line, for a measurement: the same runs the test makes
 * (loaded-suite.test.ts), printed as a table of configuration × run × verdict × duration ×
 * checks that did not pass, with each finding in full.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startCpuLoad } from './cpu-load.ts';
import { type ConfigurationRuns, loadRuns, runConfiguration } from './loaded-runs.ts';
import { runsTable, wrongRuns } from './summary.ts';
import { CONFIGURATIONS, type Configuration } from './targets.ts';
import { type Cluster, startCluster } from '../testing/postgres-cluster.ts';

const USAGE = `usage: npx tsx dev/load/run.ts [--runs N] [--config sqlite|postgres|workers]... [--serial] [--out DIR]

Runs the conformance suite N times (default: WAYBILL_LOAD_RUNS, else 5) against the reference
sandbox in each configuration (default: all three, at once), with one CPU-burning process per
core and 50–200 ms of latency on every database statement, and prints what each run gave.
  --config   sqlite, postgres (one process) or workers (waybill serve --workers 2); repeatable
  --serial   the configurations one after another instead of at once
  --out      where the runs' reports go (default: a new folder under the system's temp folder)
PostgreSQL runs on a throwaway cluster of the machine's binaries (/usr/lib/postgresql/*/bin).
`;

const progress = (line: string) => process.stderr.write(`${line}\n`);

/** The command line's choices. */
function options() {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string' },
      config: { type: 'string', multiple: true },
      serial: { type: 'boolean', default: false },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const runs = values.runs === undefined ? loadRuns() : loadRuns({ WAYBILL_LOAD_RUNS: values.runs });
  const configurations = (values.config ?? [...CONFIGURATIONS]).flatMap((value) => value.split(','));
  for (const configuration of configurations) {
    if (!(CONFIGURATIONS as readonly string[]).includes(configuration)) throw new Error(`--config ${configuration}: expected one of ${CONFIGURATIONS.join(', ')}`);
  }
  return { help: values.help, runs, configurations: [...new Set(configurations)] as Configuration[], serial: values.serial, out: values.out ?? mkdtempSync(join(tmpdir(), 'waybill-load-runs-')) };
}

/** A new empty database on `cluster`, as a URL. */
async function createDatabase(cluster: Cluster, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(cluster.url);
  url.pathname = `/${name}`;
  return url.toString();
}

async function main(): Promise<number> {
  const chosen = options();
  if (chosen.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const cluster = chosen.configurations.some((configuration) => configuration !== 'sqlite') ? await startCluster() : null;
  const load = startCpuLoad();
  progress(`${load.pids.length} CPU burners (pids ${load.pids.join(', ')}); ${chosen.runs} runs of ${chosen.configurations.join(', ')}${chosen.serial ? ', one configuration at a time' : ', at once'}; reports in ${chosen.out}`);
  try {
    const one = async (configuration: Configuration): Promise<ConfigurationRuns> =>
      runConfiguration(configuration, chosen.runs, {
        dir: chosen.out,
        ...(cluster === null || configuration === 'sqlite' ? {} : { database: await createDatabase(cluster, `waybill_load_${configuration}`) }),
        onRun: (run, index) =>
          progress(`${configuration} run ${index + 1}: ${run.verdict ?? 'no report'} (exit ${run.exitCode}), ${(run.suiteMs / 1000).toFixed(1)} s${run.problems.length > 0 ? `; ${run.problems.map((problem) => `${problem.id} ${problem.outcome}`).join(', ')}` : ''}`),
      });
    const results: ConfigurationRuns[] = [];
    if (chosen.serial) for (const configuration of chosen.configurations) results.push(await one(configuration));
    else results.push(...(await Promise.all(chosen.configurations.map(one))));
    if (load.alive() !== load.pids.length) throw new Error(`only ${load.alive()} of ${load.pids.length} CPU burners were still running at the end`);
    process.stdout.write(`${runsTable(results)}\n`);
    return results.some((result) => wrongRuns(result).length > 0) ? 1 : 0;
  } finally {
    await load.stop();
    cluster?.stop();
  }
}

// Ctrl-C still stops the burners, the sandboxes and the cluster: each is undone on `exit`.
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) process.once(signal, () => process.exit(code));
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`load: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
