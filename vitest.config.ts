import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { parseCLI } from 'vitest/node';
import { postgresBinaries } from './dev/testing/postgres-cluster.ts';
import LongestFirst from './dev/testing/longest-first.ts';
import { timesReporter } from './dev/testing/times-reporter.ts';

/** The suite under CPU load and database latency, and its parts' tests: its burners take every core, so it runs alone, last. */
const loadTests = ['dev/load/**/*.test.ts'];

/** The suite-proof's slices of every variant: the full gate runs them in a project of their own (below). */
const suiteProofSlices = ['dev/suite-proof/broken-*.test.ts', 'dev/suite-proof/alternatives-*.test.ts'];

/**
 * The test files only the full gate runs (`npm run test:all`, `.ci/run`): the slow proofs. `npm test`
 * runs every other file, on SQLite only. A new test goes here when it takes more than a few seconds
 * and proves again, at scale or under load, what a test of `npm test` proves once (docs/developing.md).
 */
export const fullOnly = [
  // Every suite-proof variant; npm test runs one of each family and way of breaking (dev/suite-proof/representatives.test.ts).
  ...suiteProofSlices,
  // The naive clients of client-check's matrix; npm test runs its two example clients (matrix-examples.test.ts).
  'conformance/client-check/matrix-feeds*.test.ts',
  'conformance/client-check/matrix-writes.test.ts',
  // Chromium.
  '**/*.browser.test.ts',
  // The guides' and the CI recipes' shell examples, run end to end as a reader runs them (the README's stay in npm test).
  'dev/repository/guide-examples.test.ts',
  'dev/repository/ci-recipes.test.ts',
  // The fuzz campaign's 10,000 cases (dev/fuzz/declared.test.ts, every operation once, stays in npm test).
  'dev/fuzz/fuzz.test.ts',
  // Four client generators from npm, each client of both documents compiled and run (about a minute and a half);
  // npm test holds the documents themselves (spec/*.test.ts, the spec's lint).
  'dev/clients/generated-clients.test.ts',
  // The suite under CPU load and database latency: a project of its own (below), run after every other file.
  ...loadTests,
];

/** What npm test runs in place of a full-gate file, which the full gate (`WAYBILL_TEST_TIER=all`) leaves out: it runs every variant these sample. */
const sampledInFull = ['dev/suite-proof/representatives.test.ts'];

/** Tests of PostgreSQL itself: their project starts one throwaway cluster per run (dev/testing/postgres-global-setup.ts); each skips, or fails under WAYBILL_REQUIRE_POSTGRES=1, where there are no binaries. */
const postgresTests = ['server/store/postgres/**/*.test.ts', 'server/**/*postgres*.test.ts', 'conformance/postgres.test.ts', 'dev/testing/postgres*.test.ts'];

/**
 * Test files that run on both engines: in `main` on SQLite, and in `postgres` again with
 * `WAYBILL_TEST_DB=postgres`, where each store they make (`memoryStore`) is a fresh
 * PostgreSQL database. The store's own tests and the HTTP-level ones (D78).
 */
export const bothEngines = [
  'server/integration/feeds.test.ts',
  'server/integration/follow.test.ts',
  'server/orders/*.test.ts',
  'server/idempotency/*.test.ts',
  'server/http/auth.test.ts',
  'server/http/rate-limit.test.ts',
  'server/control-plane/*.test.ts',
  'server/faults/*.test.ts',
  'server/clock/*.test.ts',
  'server/simulation/*.test.ts',
  'server/request-log/*.test.ts',
  'server/tenants/*.test.ts',
  'server/profiles/*.test.ts',
  'server/trips/*.test.ts',
];

/** The command line's filters and options, as vitest reads them (an empty reading where it cannot). */
function commandLine(argv: readonly string[]): { filter: string[]; options: { maxWorkers?: number | string } } {
  try {
    return parseCLI(['vitest', ...argv]);
  } catch {
    return { filter: [], options: {} };
  }
}
const cli = commandLine(process.argv.slice(2));

/** The full gate (`WAYBILL_TEST_TIER=all`): every file but those it runs in full (sampledInFull). */
const gate = process.env['WAYBILL_TEST_TIER'] === 'all';
/** Every file is eligible in the gate, and wherever files are named: a file named runs whichever tier holds it. */
const fullTier = gate || cli.filter.length > 0;

/** Where no PostgreSQL binaries exist, the files of both engines run on SQLite only, unless the run requires PostgreSQL (CI), where they fail instead. */
const postgresHere = postgresBinaries() !== null || process.env['WAYBILL_REQUIRE_POSTGRES'] === '1';
if (fullTier && !postgresHere) console.warn('the store and HTTP tests run on SQLite only: no PostgreSQL binaries (initdb, pg_ctl) under /usr/lib/postgresql/*/bin. To run them on PostgreSQL too, install Debian\'s postgresql (apt-get install -y postgresql); CI sets WAYBILL_REQUIRE_POSTGRES=1 and never skips.');

/** `npm run test:times` (dev/testing/test-times.ts) names the folder its reporter writes to. */
const timesFolder = process.env['WAYBILL_TEST_TIMES'];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Vitest's default is one worker fewer than the cores: on a 2-core machine one file at a time.
    // Most files wait on sockets and child processes as much as they compute, so every core gets one.
    // (Set here, each project takes this value over the command line's: `--maxWorkers N` is read above.)
    maxWorkers: cli.options.maxWorkers ?? Math.max(2, availableParallelism()),
    // The longest files start first, whatever their project: the run does not end on one long file alone.
    sequence: { sequencer: LongestFirst },
    // The suite-proof's variants run two at a time in their file's worker: each waits on its own sockets
    // about half the time. Not more: a variant's time grows with how many share the core, and three at
    // once on two busy cores brought a variant near its 60 s limit.
    maxConcurrency: 2,
    reporters: timesFolder ? ['default', timesReporter(timesFolder)] : ['default'],
    // Commands the tests start (`node bin/waybill.js …`) run the sources, not dist/.
    env: { WAYBILL_FROM_SOURCES: '1' },
    projects: [
      {
        extends: true,
        test: {
          name: 'main',
          include: ['{spec,server,conformance,fixtures,bin,cli,mock,dev}/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...postgresTests, ...(fullTier ? [...suiteProofSlices, ...loadTests] : fullOnly), ...(gate ? sampledInFull : [])],
        },
      },
      ...(fullTier
        ? [
            {
              extends: true as const,
              test: {
                // The suite-proof's slices: their variants run side by side, each against an in-process reference of its own.
                name: 'suite-proof',
                include: suiteProofSlices,
                sequence: { concurrent: true },
              },
            },
            {
              extends: true as const,
              test: {
                name: 'load',
                include: loadTests,
                sequence: { groupOrder: 1 },
                // Its three configurations run at once, sharing the burners (the root's two at a time ran the
                // third after SQLite's run, 90 s later: 308 s for the file where its longest run takes 216).
                maxConcurrency: 3,
                // The loaded suite runs once per configuration in the gate (issue 37: "sized to fit"; issue 43: the
                // gate in 20 minutes); five runs each, the figure issue 37 asks for, are a separate command
                // (npx tsx dev/load/run.ts --runs 5), and WAYBILL_LOAD_RUNS=N asks the gate for N.
                env: { WAYBILL_LOAD_RUNS: process.env['WAYBILL_LOAD_RUNS'] ?? '1' },
              },
            },
            {
              extends: true as const,
              test: {
                name: 'postgres',
                include: [...postgresTests, ...(postgresHere ? bothEngines : [])],
                exclude: [...configDefaults.exclude, '**/*.browser.test.ts'],
                env: { WAYBILL_TEST_DB: 'postgres' },
                // Each statement is a round trip to the server: a simulated hour of changes takes tens of seconds where SQLite takes a few.
                testTimeout: 180_000,
                globalSetup: ['dev/testing/postgres-global-setup.ts'],
              },
            },
          ]
        : []),
    ],
  },
});
