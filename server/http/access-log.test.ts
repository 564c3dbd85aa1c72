/** The access log: one line per answer, with the whole path whichever router answered it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStore, type RunningServer, seedTenant, startServer, TEST_ADMIN_TOKEN } from '../../dev/testing/sandbox.ts';

let server: RunningServer;
let key: string;

beforeAll(async () => {
  server = await startServer(await memoryStore(), { adminToken: TEST_ADMIN_TOKEN });
  key = (await seedTenant(server.store)).keys.full;
});
afterAll(() => server.close());

describe('the access log', () => {
  it('shows the full path of every answer (/sandbox/v1/…, /api/v1/integration/…), without the query', async () => {
    const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
    const answers = await Promise.all([
      fetch(`${server.url}/sandbox/v1/tenants?limit=1`, { headers: admin }),
      fetch(`${server.url}/sandbox/v1/nothing-here`, { headers: admin }),
      fetch(`${server.url}/api/v1/integration/orders?limit=1`, { headers: { 'X-Api-Key': key } }),
      fetch(`${server.url}/health`),
    ]);
    const ids = await Promise.all(answers.map(async (answer) => (await answer.arrayBuffer(), answer.headers.get('x-request-id'))));
    const lineOf = (id: string | null) => server.log.lines.find((line) => line.endsWith(` ${id}`));
    expect(lineOf(ids[0]!)).toMatch(/^GET \/sandbox\/v1\/tenants 200 [\d.]+ms /);
    expect(lineOf(ids[1]!)).toMatch(/^GET \/sandbox\/v1\/nothing-here 404 /);
    expect(lineOf(ids[2]!)).toMatch(/^GET \/api\/v1\/integration\/orders 200 /);
    expect(lineOf(ids[3]!)).toMatch(/^GET \/health 200 /);
  });
});
