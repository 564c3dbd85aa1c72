import { configDefaults, defineConfig } from 'vitest/config';
import { postgresBinaries } from './dev/testing/postgres-cluster.ts';

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

/** Where no PostgreSQL binaries exist, the files of both engines run on SQLite only, unless the run requires PostgreSQL (CI), where they fail instead. */
const postgresHere = postgresBinaries() !== null || process.env['WAYBILL_REQUIRE_POSTGRES'] === '1';
if (!postgresHere) console.warn('the store and HTTP tests run on SQLite only: no PostgreSQL binaries (initdb, pg_ctl) under /usr/lib/postgresql/*/bin. To run them on PostgreSQL too, install Debian\'s postgresql (apt-get install -y postgresql); CI sets WAYBILL_REQUIRE_POSTGRES=1 and never skips.');

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Commands the tests start (`node bin/waybill.js …`) run the sources, not dist/.
    env: { WAYBILL_FROM_SOURCES: '1' },
    projects: [
      {
        extends: true,
        test: { name: 'main', include: ['{spec,server,conformance,fixtures,bin,cli,mock,dev}/**/*.test.ts'], exclude: [...configDefaults.exclude, ...postgresTests] },
      },
      {
        extends: true,
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
    ],
  },
});
