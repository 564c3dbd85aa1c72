/** `waybill mock` as a user runs it: Prism over the spec, answering with the spec's examples. */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type Json, openapi, resolveRef } from '../spec/load.ts';
import { PACKAGE_VERSION } from '../spec/package-files.ts';
import { freePort } from './prism.ts';

const bin = fileURLToPath(new URL('../bin/waybill.js', import.meta.url));

/** The `value` of a named example of the order feed's 200 answer in the spec. */
function orderFeedExample(name: string): Json {
  const paths = openapi['paths'] as Record<string, any>;
  const response = resolveRef(paths['/api/v1/integration/orders'].get.responses['200']) as Record<string, any>;
  return response['content']['application/json'].examples[name].value as Json;
}

describe('waybill mock', () => {
  it('answers the order feed with the spec example for a request with a key, refuses one without, answers /health as the sandbox does, and exits 0 on SIGTERM', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [bin, 'mock', '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await new Promise<void>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`no banner: ${out}`)), 90_000);
        child.stdout.on('data', (chunk) => {
          out += chunk;
          if (out.includes('listening on')) {
            clearTimeout(timer);
            resolve();
          }
        });
        child.on('exit', () => reject(new Error(`exited: ${out}`)));
      });
      const url = `http://127.0.0.1:${port}/api/v1/integration/orders`;
      const page = await fetch(url, { headers: { 'X-Api-Key': 'any-key' } });
      expect(page.status).toBe(200);
      expect(await page.json()).toEqual(orderFeedExample('page'));
      const caughtUp = await fetch(url, { headers: { 'X-Api-Key': 'any-key', Prefer: 'example=caughtUp' } });
      expect(await caughtUp.json()).toEqual(orderFeedExample('caughtUp'));
      const noKey = await fetch(url);
      expect(noKey.status).toBe(401);
      expect(noKey.headers.get('content-type')).toMatch(/problem\+json/);
      // What `waybill wait …/health` asks, without a key, as of `waybill serve`.
      const health = await fetch(`http://127.0.0.1:${port}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok', version: PACKAGE_VERSION });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 120_000);

  it('refuses a port in use with exit 2 and says so, without claiming to listen', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const child = spawn(process.execPath, [bin, 'mock', '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      child.stderr.on('data', (chunk) => (err += chunk));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(2);
      expect(err).toContain(`port ${port} on 127.0.0.1 is in use; pick another with --port`);
      expect(out).not.toMatch(/listening/);
    } finally {
      taken.close();
    }
  }, 60_000);

  it('refuses --seed without --dynamic with exit 2', async () => {
    const child = spawn(process.execPath, [bin, 'mock', '--seed', '3'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (chunk) => (err += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(err).toMatch(/--seed/);
  }, 30_000);
});
