/** The one error handler: an unexpected failure is a 500 problem with a request id, logged with its stack, never shown. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, memoryStore, type RunningServer, type SeededTestTenant, seedTenant, startServer, tinyDataset } from '../../dev/testing/sandbox.ts';
import type { Store } from '../store/index.ts';

let server: RunningServer<Store>;
let keys: SeededTestTenant['keys'];

beforeAll(async () => {
  const store = await memoryStore();
  ({ keys } = await seedTenant(store, tinyDataset({ orders: 5 })));
  // A store whose order feed breaks the way a bug or a lost disk would.
  const broken: Store = { ...store, orders: { ...store.orders, feedPage: () => { throw new Error('disk I/O error at /secret/path'); } } };
  server = await startServer(broken);
});
afterAll(() => server.close());

describe('an unexpected failure', () => {
  it('is answered 500 about:blank with the request id, and its stack goes to the log only', async () => {
    const answer = await call(server.url, 'orderFeed', '/api/v1/integration/orders', { key: keys.full, headers: { 'X-Request-Id': 'trace-500' } });
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({
      type: 'about:blank',
      title: 'Internal Server Error',
      status: 500,
      detail: 'Unexpected error; quote the request id trace-500.',
      instance: '/api/v1/integration/orders#trace-500',
    });
    expect(JSON.stringify(answer.body)).not.toMatch(/disk I\/O|secret|at .*\.ts/);
    const logged = server.log.lines.find((line) => line.startsWith('trace-500 GET /api/v1/integration/orders failed'));
    expect(logged).toMatch(/disk I\/O error/);
    expect(logged).toMatch(/\n\s+at .+:\d+:\d+/);
  });

  it('leaves the other operations working', async () => {
    expect((await call(server.url, 'whoami', '/api/v1/integration/whoami', { key: keys.full })).status).toBe(200);
  });
});
