/**
 * The contract declares every status the sandbox gives an operation (D60): the answers of the
 * HTTP layer, given before any operation runs, to a request for each operation of both documents.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../spec/load.ts';
import { SANDBOX_PREFIX, sandboxOperations } from '../../server/control-plane/routes.ts';
import { memoryStore, type RunningServer, startServer } from '../testing/sandbox.ts';
import { declaredFor, requestLines, undeclaredStatus } from './declared.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(await memoryStore());
});
afterAll(() => server.close());

const ID = '00000000-0000-4000-8000-000000000001';
const every = [
  ...[...operations.values()].map((op) => ({ name: op.operationId, method: op.method, path: op.path.replace(/\{[^}]+\}/g, ID) })),
  ...sandboxOperations.map((op) => ({ name: `sandbox.${op.operationId}`, method: op.method, path: `${SANDBOX_PREFIX}${op.path.replace(/\{[^}]+\}/g, ID)}` })),
];

/** The status of the first answer to `bytes` on a fresh connection. */
function statusOf(bytes: string): Promise<number> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve) => {
    let received = '';
    const socket = connect({ host: hostname, port: Number(port) }, () => socket.end(bytes));
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0)));
  });
}

describe('the answers the HTTP layer gives every operation (D60)', () => {
  it.each(every.map((op) => [op.name, op] as const))('%s declares the 417 of an unmet Expect and the 400 of an oversized head', async (_, op) => {
    const expectation = await statusOf(`${op.method} ${op.path} HTTP/1.1\r\nHost: x\r\nExpect: foo\r\nConnection: close\r\n\r\n`);
    const oversized = await statusOf(`${op.method} ${op.path} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`);
    expect([expectation, oversized]).toEqual([417, 400]);
    expect(declaredFor(op.method, op.path).operation).toBe(op.name);
    expect(undeclaredStatus(op, 417)).toBeNull();
    expect(undeclaredStatus(op, 400)).toBeNull();
  });
});

describe('declaredFor and requestLines', () => {
  it('names the operation a request reaches, HEAD as GET, and says why a status is not declared', () => {
    expect(declaredFor('HEAD', '/api/v1/integration/orders').operation).toBe('orderFeed');
    expect(declaredFor('POST', '/api/v1/integration/orders').operation).toBeNull();
    expect(undeclaredStatus({ method: 'GET', path: '/api/v1/integration/whoami' }, 409)).toMatch(/^a 409 on whoami, whose contract declares 200, 400/);
    expect(undeclaredStatus({ method: 'POST', path: '/api/v1/nothing' }, 415)).toMatch(/which no operation takes/);
    expect(undeclaredStatus({ method: 'POST', path: '/api/v1/nothing' }, 404)).toBeNull();
    expect(undeclaredStatus({ method: 'GET', path: '/console' }, 302)).toBeNull();
    expect(undeclaredStatus(null, 200)).toMatch(/could not be read/);
  });

  it('reads the request lines of pipelined requests, skipping each body, as Node reads them', () => {
    const bytes = 'POST /a HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}GET  /b?x=1 HTTP/1.1\r\n\r\nGET /\r\n\r\nGARBAGE\r\n\r\n';
    expect(requestLines(Buffer.from(bytes, 'latin1'))).toEqual([{ method: 'POST', path: '/a' }, { method: 'GET', path: '/b' }, { method: 'GET', path: '/' }, null]);
  });
});
