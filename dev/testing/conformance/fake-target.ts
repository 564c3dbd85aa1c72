/**
 * Test support: tiny `node:http` targets on ephemeral ports, and a profile for them. A target
 * here is deliberately small; broken variants are written by overriding one answer.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Profile } from '../../../conformance/engine/types/profile.ts';

/** A request as the fake target saw it. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** Answers one request; `body` is the whole request body. */
export type FakeHandler = (request: SeenRequest, response: ServerResponse) => void;

/** A running fake target. */
export interface FakeTarget {
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

/** Starts `handler` on 127.0.0.1 and an ephemeral port. */
export async function startFakeTarget(handler: FakeHandler): Promise<FakeTarget> {
  const requests: SeenRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const seen = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(seen);
      handler(seen, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes a JSON answer with X-Request-Id. */
export function answer(response: ServerResponse, status: number, body: unknown, contentType = status < 300 ? 'application/json' : 'application/problem+json'): void {
  response.writeHead(status, { 'content-type': contentType, 'x-request-id': 'req_test' });
  response.end(body === undefined ? undefined : JSON.stringify(body));
}

/** The secrets of the test profile. */
export const testKeys = {
  full: 'wb_full_S3CRET_full_0001',
  ordersRead: 'wb_orders_S3CRET_0002',
  tripsRead: 'wb_trips_S3CRET_0003',
  noScopes: 'wb_none_S3CRET_0004',
} as const;

/** The scopes each test key resolves to on a conforming target. */
export const testScopes: Record<string, string[]> = {
  [testKeys.full]: ['orders:read', 'orders:write', 'trips:read'],
  [testKeys.ordersRead]: ['orders:read'],
  [testKeys.tripsRead]: ['trips:read'],
  [testKeys.noScopes]: [],
};

/** A profile with the four discovery keys and small pools. */
export function testProfile(overrides: Partial<Profile> = {}): Profile {
  return {
    keys: { ...testKeys },
    orders: { payable: ['ext-1', 'ext-2', 'ext-3'], archivable: ['ext-3', 'ext-4'] },
    ...overrides,
  };
}

/**
 * A target that answers whoami as the contract says for the test keys, 401 without a known key,
 * 404 `orders.notFound` on the order routes and 404 about:blank anywhere else.
 */
export function conformingHandler(scopes: Record<string, string[]> = testScopes): FakeHandler {
  return (request, response) => {
    const key = request.headers['x-api-key'];
    const path = request.url.split('?')[0] ?? '';
    if (typeof key !== 'string' || scopes[key] === undefined) {
      response.setHeader('www-authenticate', 'ApiKey');
      return answer(response, 401, { type: 'about:blank', title: 'Unauthorized', status: 401, detail: null, instance: `${path}#req_test` });
    }
    if (request.method === 'GET' && path === '/api/v1/integration/whoami') {
      return answer(response, 200, { tenantId: 'tenant-1', keyId: 'key-1', scopes: scopes[key] });
    }
    if (path.startsWith('/api/v1/integration/orders/externalid/')) {
      return answer(response, 404, { type: 'orders.notFound', title: 'Order not found', status: 404, detail: null, instance: `${path}#req_test` });
    }
    return answer(response, 404, { type: 'about:blank', title: 'Not Found', status: 404, detail: null, instance: `${path}#req_test` });
  };
}

/** A URL on 127.0.0.1 where nothing listens (a port just freed). */
export async function closedTargetUrl(): Promise<string> {
  const target = await startFakeTarget(() => undefined);
  await target.close();
  return target.url;
}
