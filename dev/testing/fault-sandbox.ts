/**
 * Test support for the fault-injection tests (D51): a sandbox of the calling test file with
 * tenants A and B and the request log on, whose rules are deleted after each test, and a
 * client that records what arrives on the wire (raw sockets, for what fetch cannot show).
 */
import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { RequestLog } from '../../server/request-log/recorder.ts';
import { openRequestLog } from '../../server/start/start-sandbox.ts';
import { call, memoryStore, type RunningServer, sandboxClient, type SandboxClient, type SeededTestTenant, seedTenant, startServer, TEST_ADMIN_TOKEN, tinyDataset } from './sandbox.ts';

export const FEED = '/api/v1/integration/orders?limit=5';
export const WHOAMI = '/api/v1/integration/whoami';
export const paymentPath = (externalId: string) => `/api/v1/integration/orders/externalid/${externalId}/payment`;
export const payment = (n: number) => ({ paymentId: `4c1a7e93-2b5d-4f08-9e6c-${String(n).padStart(12, '0')}`, amount: 5, currency: 'EUR' });

/** A seeded tenant with its keys. */
export type Tenant = SeededTestTenant;

/** What a client saw on the wire: the head, the body as received, how it arrived, and how the connection ended. */
export interface Wire {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The data events that carried body bytes. */
  bodyChunks: number;
  headAt: number;
  firstBodyAt: number;
  lastBodyAt: number;
  /** Every byte received. */
  bytes: number;
  /** The socket error (ECONNRESET), or null for a close. */
  error: string | null;
}

/** A fetch-style view of a wire answer, for the contract checks. */
export const asResponse = (seen: Wire) => new Response(seen.body, { status: seen.status, headers: seen.headers });

/**
 * Registers the hooks of the calling test file's sandbox and returns it. `server`, `a` and `b`
 * are filled in when the file's tests start; the functions may be taken apart at once.
 */
export function faultSandbox() {
  const server = {} as RunningServer;
  const a = {} as Tenant;
  const b = {} as Tenant;
  let log: RequestLog;
  let client: SandboxClient;

  beforeAll(async () => {
    const store = await memoryStore();
    Object.assign(a, await seedTenant(store, tinyDataset({ orders: 60 }), { rateLimit: 6000 }));
    Object.assign(b, await seedTenant(store, tinyDataset({ orders: 60, idSpace: 1 }), { rateLimit: 6000 }));
    log = openRequestLog(store);
    Object.assign(server, await startServer(store, { adminToken: TEST_ADMIN_TOKEN, requestLog: log }));
    client = sandboxClient(server.url);
  });
  afterAll(async () => {
    await server.close();
    await log.close();
  });
  afterEach(async () => {
    for (const tenant of [a, b]) await client('deleteFaults', `/tenants/${tenant.tenantId}/faults`);
  });

  const api: SandboxClient = (...args) => client(...args);

  /** Sends one request on a fresh connection (`Connection: close`) and records everything until the server closes it. */
  function wire(method: string, path: string, options: { key: string; headers?: Record<string, string>; json?: unknown; stopAfterHead?: boolean }): Promise<Wire> {
    const { hostname, port, host } = new URL(server.url);
    const body = options.json === undefined ? '' : JSON.stringify(options.json);
    const headers = { Host: host, 'X-Api-Key': options.key, Connection: 'close', ...(body === '' ? {} : { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) }), ...options.headers };
    const text = `${method} ${path} HTTP/1.1\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n${body}`;
    return new Promise((resolve, reject) => {
      const received: Buffer[] = [];
      const seen: Wire = { status: 0, headers: {}, body: Buffer.alloc(0), bodyChunks: 0, headAt: 0, firstBodyAt: 0, lastBodyAt: 0, bytes: 0, error: null };
      let headLength = -1;
      const socket = connect(Number(port), hostname, () => socket.write(text));
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`no end within 10 s: ${Buffer.concat(received).toString('latin1')}`));
      }, 10_000);
      socket.on('data', (chunk: Buffer) => {
        const at = performance.now();
        received.push(chunk);
        const all = Buffer.concat(received);
        seen.bytes = all.length;
        if (headLength < 0) {
          const end = all.indexOf('\r\n\r\n');
          if (end < 0) return;
          headLength = end + 4;
          seen.headAt = at;
          const [statusLine = '', ...lines] = all.subarray(0, end).toString('latin1').split('\r\n');
          seen.status = Number(statusLine.split(' ')[1]);
          for (const line of lines) seen.headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
          if (options.stopAfterHead) socket.destroy();
        }
        if (all.length > headLength && (seen.bodyChunks === 0 || chunk.length > 0)) {
          if (seen.bodyChunks === 0) seen.firstBodyAt = at;
          seen.bodyChunks += 1;
          seen.lastBodyAt = at;
        }
      });
      socket.on('error', (error: NodeJS.ErrnoException) => (seen.error = error.code ?? error.message));
      socket.on('close', () => {
        clearTimeout(timer);
        seen.body = headLength < 0 ? Buffer.alloc(0) : Buffer.concat(received).subarray(headLength);
        resolve(seen);
      });
    });
  }

  /** Adds a rule to `tenant`; the answer is checked against the contract. */
  async function rule(tenant: { tenantId: string }, json: Record<string, unknown>): Promise<{ id: string }> {
    const answer = await api('createFault', `/tenants/${tenant.tenantId}/faults`, { json });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body;
  }

  const rulesOf = async (tenant: { tenantId: string }) => (await api('listFaults', `/tenants/${tenant.tenantId}/faults`)).body.items;
  const feed = (key: string, headers: Record<string, string> = {}) => call(server.url, 'orderFeed', FEED, { key, headers });
  /** The order with `externalId` as the tenant's feed shows it (undefined once archived). */
  async function orderOf(key: string, externalId: string): Promise<{ id: string; status: string } | undefined> {
    const page = await call(server.url, 'orderFeed', '/api/v1/integration/orders?limit=100', { key });
    return page.body.items.find((order: { externalId: string }) => order.externalId === externalId);
  }
  /** The payments recorded on tenant A's order `externalId`, as the control plane's order history shows them. */
  async function paymentsOf(externalId: string): Promise<unknown[]> {
    const order = await orderOf(a.keys.full, externalId);
    const history = await api('orderHistory', `/tenants/${a.tenantId}/orders/${order!.id}/history`);
    return history.body.items.filter((entry: { kind: string }) => entry.kind === 'payment');
  }
  /** Resolves once every request so far is in the request log. */
  const settleLog = () => log.settle();

  return { server, a, b, api, wire, rule, rulesOf, feed, orderOf, paymentsOf, settleLog };
}
