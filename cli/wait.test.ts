/**
 * `waybill wait URL`: ready when URL answers 2xx, however late it starts listening or however
 * many non-2xx answers come first; exit 1 with the last attempt's outcome when --timeout runs
 * out; exit 2 for a command line it cannot act on.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../mock/prism.ts';
import { waitFor } from './wait.ts';

const bin = fileURLToPath(new URL('../bin/waybill.js', import.meta.url));
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

/** An HTTP server on `port` whose n-th request (from 0) is answered `statuses[n]`, the last one ever after. */
function listen(port: number, statuses: number[]): Promise<Server> {
  let asked = 0;
  const server = createServer((_req, res) => {
    res.statusCode = statuses[Math.min(asked++, statuses.length - 1)]!;
    res.end('{}');
  });
  servers.push(server);
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

/** Runs `waybill wait …args` as a user does. */
function waybillWait(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, 'wait', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Collects what waitFor prints. */
function printed() {
  const lines = { out: [] as string[], err: [] as string[] };
  return { lines, print: { out: (line: string) => lines.out.push(line), err: (line: string) => lines.err.push(line) } };
}

describe('waybill wait', () => {
  it('waits for a server that starts listening a second later, then answers 503 twice before 200', async () => {
    const port = await freePort();
    const { lines, print } = printed();
    setTimeout(() => void listen(port, [503, 503, 200]), 1000);
    const url = new URL(`http://127.0.0.1:${port}/health`);
    expect(await waitFor(url, 20_000, print)).toBe(0);
    expect(lines.out).toEqual([expect.stringMatching(new RegExp(`^waybill wait: ${url.href} answered 200 after (1|2)\\.\\d s$`))]);
    expect(lines.err).toEqual([]);
  });

  it('gives up after --timeout with exit 1, naming what the last attempt got', async () => {
    const nothing = await waybillWait([`http://127.0.0.1:${await freePort()}/health`, '--timeout', '1']);
    expect(nothing.status).toBe(1);
    expect(nothing.stderr).toMatch(/not ready within 1 s \(last attempt: connection refused\)\n$/);
    const port = await freePort();
    await listen(port, [500]);
    const failing = await waybillWait([`http://127.0.0.1:${port}/health`, '--timeout', '1.5']);
    expect(failing.status).toBe(1);
    expect(failing.stderr).toMatch(/not ready within 1\.5 s \(last attempt: answered 500\)\n$/);
    expect(failing.stdout).toBe('');
  }, 30_000);

  it('prints one line on stdout and exits 0 once ready', async () => {
    const port = await freePort();
    await listen(port, [204]);
    const ready = await waybillWait([`http://127.0.0.1:${port}/`]);
    expect(ready).toEqual({ status: 0, stdout: expect.stringMatching(/^waybill wait: http:\/\/127\.0\.0\.1:\d+\/ answered 204 after \d+\.\d s\n$/), stderr: '' });
  }, 30_000);

  it.each([
    [['not-a-url'], "'not-a-url' is not a URL"],
    [['ftp://127.0.0.1/'], 'is not an http or https URL'],
    [['http://127.0.0.1:4000/health', '--timeout', '0'], "option '--timeout <seconds>' argument '0' is invalid"],
    [[], "missing required argument 'url'"],
  ])('refuses %j with one line and exit 2', async (args, message) => {
    const result = await waybillWait(args);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stdout).toBe('');
  }, 30_000);
});
