/**
 * How long the sandbox takes to answer the bodies that used to hold it up, and how long a
 * concurrent `whoami` waits meanwhile (issues 10 and 21): almost 1 MiB of bad order lines,
 * one import row of 40,000 bad lines (D59), and a member nested 100,000 levels deep (D58).
 * An in-process sandbox on 127.0.0.1 with its validators warmed as `waybill serve` warms
 * them; five rounds each, the first of them the process's first such body.
 *
 *   npx tsx dev/bench/big-body.ts
 */
import { warmValidators } from '../../server/http/validate.ts';
import { memoryStore, orderIntake, seedTenant, startServer } from '../testing/sandbox.ts';

const ADMIN_TOKEN = 'T'.repeat(43);
const ROUNDS = 5;

const store = await memoryStore();
const { tenantId, keys } = await seedTenant(store);
const server = await startServer(store, { adminToken: ADMIN_TOKEN });
await warmValidators();

// Bad lines (unknown warehouse and product, negative quantity) up to just under 1 MiB.
const badLine = { warehouseId: 'nope', productId: 'nope', quantity: -1 };
const lineBytes = JSON.stringify(badLine).length + 1;
const lines = Array.from({ length: Math.floor((1024 * 1024 - 64) / lineBytes) }, () => badLine);
const bodies = [
  { name: `order intake, ${lines.length.toLocaleString('en-US')} bad lines`, path: `/sandbox/v1/tenants/${tenantId}/orders`, body: JSON.stringify({ externalId: 'BIG-1', lines }) },
  { name: 'import, one row of 40,000 bad lines', path: `/sandbox/v1/tenants/${tenantId}/order-imports`, body: JSON.stringify({ rows: [orderIntake('BIG-2', { lines: Array.from({ length: 40_000 }, () => 1) })] }) },
  { name: 'tenant, skills nested 100,000 deep', path: '/sandbox/v1/tenants', body: `{"country":"NL","skills":${'['.repeat(100_000)}${']'.repeat(100_000)}}` },
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const { name, path, body } of bodies) {
  process.stdout.write(`${name}: ${Buffer.byteLength(body).toLocaleString('en-US')} bytes\n`);
  for (let round = 1; round <= ROUNDS; round++) {
    const probes: number[] = [];
    let probing = true;
    const probe = (async () => {
      while (probing) {
        const started = performance.now();
        await (await fetch(`${server.url}/api/v1/integration/whoami`, { headers: { 'X-Api-Key': keys.full } })).text();
        probes.push(performance.now() - started);
        await sleep(2);
      }
    })();
    await sleep(50);
    const started = performance.now();
    const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' }, body });
    const answer = await response.text();
    const ms = performance.now() - started;
    await sleep(50);
    probing = false;
    await probe;
    const parsed = JSON.parse(answer) as { type?: string; errors?: unknown[]; rows?: { errors: unknown[] }[] };
    const listed = parsed.errors?.length ?? parsed.rows?.[0]?.errors.length ?? 0;
    probes.sort((a, b) => a - b);
    process.stdout.write(
      `  round ${round}: ${response.status} ${parsed.type ?? 'import'} in ${ms.toFixed(0)} ms (${answer.length.toLocaleString('en-US')} bytes, ${listed} field errors listed); ` +
        `whoami: ${probes.length} probes, median ${probes[probes.length >> 1]!.toFixed(1)} ms, worst ${probes.at(-1)!.toFixed(1)} ms\n`,
    );
  }
}
await server.close();
