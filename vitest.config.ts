import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{spec,server,conformance,fixtures,bin,cli,mock,dev}/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Commands the tests start (`node bin/waybill.js …`) run the sources, not dist/.
    env: { WAYBILL_FROM_SOURCES: '1' },
  },
});
