/**
 * Answers Node would give on its own — to a request it cannot parse on a reused connection, one
 * without Host, an unknown Expect, CONNECT, OPTIONS — are problem+json with a request id like
 * every other answer (D21, D23); a connection is closed only after an answer, every time.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStore, type RunningServer, seedTenant, startServer } from '../../dev/testing/sandbox.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(await memoryStore());
});
afterAll(() => server.close());

/** Everything the server sends back on one connection to `bytes`, until it closes or goes quiet for `quietMs`. */
function exchange(bytes: string, quietMs = 300): Promise<string> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let received = '';
    let timer = setTimeout(() => socket.end(), quietMs);
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      clearTimeout(timer);
      timer = setTimeout(() => socket.end(), quietMs);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
    socket.on('error', reject);
    socket.write(bytes);
  });
}

/** The answers in `text`: status, headers (lower case) and body of each. */
function answers(text: string): { status: number; headers: Record<string, string>; body: string }[] {
  const found: { status: number; headers: Record<string, string>; body: string }[] = [];
  let rest = text;
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n');
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length'] ?? 0);
    found.push({ status: Number(statusLine!.split(' ')[1]), headers, body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
  return found;
}

/** Holds `answer` to problem+json with a request id, the status in the body, and `type`. */
function expectProblem(answer: { status: number; headers: Record<string, string>; body: string } | undefined, status: number, type: string) {
  expect(answer?.status).toBe(status);
  expect(answer?.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(answer?.headers['x-request-id']).toBeTruthy();
  expect(JSON.parse(answer!.body)).toMatchObject({ type, status });
}

describe('answers Node would give on its own', () => {
  it('answers an unparseable request on a reused keep-alive connection, after the answer before it', async () => {
    const text = await exchange(`GET /api/v1/integration/whoami HTTP/1.1\r\nHost: x\r\n\r\nGARBAGE\r\n\r\n`);
    const [first, second] = answers(text);
    expectProblem(first, 401, 'about:blank');
    expectProblem(second, 400, 'api.malformed_request');
  });

  it('answers a request without Host with a 400 problem', async () => {
    expectProblem(answers(await exchange('GET /api/v1/integration/whoami HTTP/1.1\r\nConnection: close\r\n\r\n'))[0], 400, 'api.malformed_request');
  });

  it('answers an Expect it cannot meet with a 417 problem', async () => {
    expectProblem(answers(await exchange('POST /api/v1/integration/orders/externalid/x/cancel HTTP/1.1\r\nHost: x\r\nExpect: foo\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}'))[0], 417, 'about:blank');
  });

  it('answers CONNECT with a 405 problem instead of closing the connection', async () => {
    expectProblem(answers(await exchange('CONNECT example.test:443 HTTP/1.1\r\nHost: example.test:443\r\n\r\n'))[0], 405, 'about:blank');
  });

  it.each(['http://[::1/', 'http://x:99999/api/v1/integration/whoami'])('answers a request target that is no URL (%s) with a 400 problem, not an HTML 404', async (target) => {
    expectProblem(answers(await exchange(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`))[0], 400, 'api.malformed_request');
  });

  it.each(['/api/v1/integration/orders', '/sandbox/v1/tenants'])('answers OPTIONS %s with a 405 problem listing the methods, not a 200 text/plain', async (path) => {
    const [answer] = answers(await exchange(`OPTIONS ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
    expectProblem(answer, 405, 'about:blank');
    expect(answer?.headers['allow']).toMatch(/GET/);
  });
});

describe('a malformed chunked body', () => {
  let head = '';
  beforeAll(async () => {
    const key = (await seedTenant(server.store)).keys.full;
    head = `POST /api/v1/integration/orders/externalid/x/cancel HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`;
  });

  it.each([
    ['a chunk size that is not hexadecimal', 'zz\r\n{}\r\n0\r\n\r\n'],
    ['a NUL where a trailer belongs', '0\r\n\u0000\r\n0\r\n\r\n'],
  ])('is answered 400 api.malformed_request at once, not 408 once the body times out: %s', async (_, body) => {
    // The server under test waits 10 s for a stalled body; the exchange gives up after 300 ms of quiet.
    expectProblem(answers(await exchange(`${head}${body}`))[0], 400, 'api.malformed_request');
  });

  it('is answered even when the client then closes its side', async () => {
    const { hostname, port } = new URL(server.url);
    const text = await new Promise<string>((resolve) => {
      const socket = connect({ host: hostname, port: Number(port) }, () => socket.end(`${head}zz\r\n{}\r\n0\r\n\r\n`));
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString('latin1')));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(received));
    });
    expectProblem(answers(text)[0], 400, 'api.malformed_request');
  });
});

describe('a request that cannot be parsed behind a good one on a kept-alive connection', () => {
  /** The ways the pair reaches the server: together, with the client's side then closed, the bad head in two parts, behind a slow answer. */
  const shapes = ['together', 'half-closed', 'head in two parts', 'slow answer, half-closed'] as const;

  /** Sends a whoami and, pipelined behind it, a request whose 17,000-character query Node cannot parse; resolves to everything that came back. */
  function pipelined(key: string, shape: (typeof shapes)[number]): Promise<string> {
    const { hostname, port } = new URL(server.url);
    const prefer = shape === 'slow answer, half-closed' ? 'Prefer: latency=20\r\n' : '';
    const first = `GET /api/v1/integration/whoami HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${key}\r\n${prefer}\r\n`;
    const second = `GET /api/v1/integration/orders?x=${'a'.repeat(17_000)} HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${key}\r\n\r\n`;
    return new Promise((resolve) => {
      let received = '';
      const socket = connect({ host: hostname, port: Number(port) }, () => {
        if (shape === 'head in two parts') {
          socket.write(`${first}${second.slice(0, 16_500)}`);
          setImmediate(() => socket.write(second.slice(16_500)));
        } else socket.write(`${first}${second}`);
        if (shape.endsWith('half-closed')) socket.end();
      });
      // A lost answer leaves the client waiting: give up after 5 s and report what came.
      const timer = setTimeout(() => socket.destroy(), 5000);
      socket.on('data', (chunk) => (received += chunk.toString('latin1')));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearTimeout(timer);
        resolve(received);
      });
    });
  }

  it('gets its 400 after the 200 before it, in 1,000 of 1,000 runs under concurrent load', async () => {
    const { keys } = await seedTenant(server.store, undefined, { rateLimit: 6000 });
    const load = (await seedTenant(server.store, undefined, { rateLimit: 6000 })).keys.full;
    let loading = true;
    // Other clients keep the server busy meanwhile.
    const background = Array.from({ length: 4 }, async () => {
      while (loading) await (await fetch(`${server.url}/api/v1/integration/orders?limit=5`, { headers: { 'X-Api-Key': load } })).arrayBuffer();
    });
    const lost: string[] = [];
    let next = 0;
    const runner = async () => {
      for (let run = next++; run < 1000; run = next++) {
        const shape = shapes[run % shapes.length]!;
        const got = answers(await pipelined(keys.full, shape));
        const statuses = got.map((answer) => answer.status).join(',');
        const problem = got[1]?.headers['content-type']?.startsWith('application/problem+json') && got[1].headers['x-request-id'];
        if (statuses !== '200,400' || !problem) lost.push(`run ${run} (${shape}): answers ${statuses || 'none'}`);
      }
    };
    await Promise.all(Array.from({ length: 25 }, runner));
    loading = false;
    await Promise.all(background);
    expect(lost).toEqual([]);
  }, 120_000);
});
