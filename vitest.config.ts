import { configDefaults, defineConfig } from 'vitest/config';

/** Tests that need PostgreSQL: their project starts one throwaway cluster per run (dev/testing/postgres-global-setup.ts). */
const postgresTests = ['server/store/postgres/**/*.test.ts', 'server/**/*postgres*.test.ts', 'conformance/postgres.test.ts', 'dev/testing/postgres*.test.ts'];

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
        test: { name: 'postgres', include: postgresTests, globalSetup: ['dev/testing/postgres-global-setup.ts'] },
      },
    ],
  },
});
