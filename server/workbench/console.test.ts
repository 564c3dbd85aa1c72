/** The console's files at /console: the page under its CSP, assets by type, 404 and 405 problems, 503 before a build. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsole } from '../../console/build.mjs';
import { catalogEntry, operations } from '../../spec/load.ts';
import { createHttpServer, listen } from '../http/server.ts';
import { makeErrorHandler } from '../http/error-handler.ts';
import { makeFallback } from '../http/fallback.ts';
import { makeRequestId } from '../http/request-id.ts';
import { memoryLogger } from '../http/log.ts';
import { memoryStore, type RunningServer, startServer } from '../../dev/testing/sandbox.ts';
import { CONSOLE_CSP, makeConsoleRouter } from './console.ts';

const dir = mkdtempSync(join(tmpdir(), 'waybill-console-'));
const built = join(dir, 'built');
const unbuilt = join(dir, 'unbuilt');
const closers: (() => void)[] = [];

/** The console router over `folder` in an app with the sandbox's request ids, fallback and error handler. */
async function serveConsole(folder: string): Promise<string> {
  const app = express();
  app.use(makeRequestId());
  app.use(makeConsoleRouter({ dir: folder }));
  app.use(makeFallback([]));
  app.use(makeErrorHandler({ log: memoryLogger() }));
  const server = createHttpServer(app);
  closers.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return listen(server, 0, '127.0.0.1');
}

let builtUrl: string;
let unbuiltUrl: string;
let sandbox: RunningServer;

beforeAll(async () => {
  await buildConsole(built);
  builtUrl = await serveConsole(built);
  unbuiltUrl = await serveConsole(unbuilt);
  sandbox = await startServer(await memoryStore());
}, 60_000);
afterAll(async () => {
  for (const close of closers) close();
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('/console', () => {
  it.each(['/console', '/console/', '/console/index.html'])('%s is the page under the console CSP', async (path) => {
    const response = await fetch(`${builtUrl}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const html = await response.text();
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<script type="module" src="/console/app.js"></script>');
    expect(html).toContain('<link rel="stylesheet" href="/console/app.css">');
    // Nothing inline: no script body, no style element or attribute, no address elsewhere.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=/);
    expect(html).not.toMatch(/https?:\/\//);
  });

  it("problems.json lists each operation's x-error-codes with the status and title it answers, for the fault form (D95)", async () => {
    const problems = await (await fetch(`${builtUrl}/console/problems.json`)).json();
    const listed = (codes: readonly string[]) => codes.map((code) => ({ code, status: catalogEntry(code).status, title: catalogEntry(code).title }));
    expect(problems).toEqual(Object.fromEntries([...operations.values()].map((operation) => [operation.operationId, listed(operation.errorCodes)])));
  });

  it.each([
    ['/console/app.js', 'text/javascript; charset=utf-8'],
    ['/console/app.css', 'text/css; charset=utf-8'],
    ['/console/catalog.json', 'application/json; charset=utf-8'],
    ['/console/problems.json', 'application/json; charset=utf-8'],
  ])('%s is served as %s, revalidated by its ETag', async (path, type) => {
    const response = await fetch(`${builtUrl}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const body = await response.text();
    expect(body.length).toBeGreaterThan(1000);
    expect(body).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
    const etag = response.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(`${builtUrl}${path}`, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
  });

  it.each(['/console/nothing.js', '/console/.env', '/console/app.js.map', '/console/%2e%2e%2fpackage.json', '/console/deeper/app.js'])('%s is a 404 problem', async (path) => {
    const response = await fetch(`${builtUrl}${path}`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json\b/);
    expect(((await response.json()) as { type: string }).type).toBe('about:blank');
  });

  it('takes GET and HEAD only', async () => {
    const head = await fetch(`${builtUrl}/console`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    const post = await fetch(`${builtUrl}/console/app.js`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('answers 503 with the way out when the console is not built', async () => {
    for (const path of ['/console', '/console/app.js']) {
      const response = await fetch(`${unbuiltUrl}${path}`);
      expect(response.status).toBe(503);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json\b/);
      const body = (await response.json()) as { type: string; title: string; detail: string };
      expect(body.type).toBe('about:blank');
      expect(body.title).toBe('Service Unavailable');
      expect(body.detail).toContain('npm run build');
    }
  });

  it('is mounted in the sandbox app', async () => {
    const response = await fetch(`${sandbox.url}/console/`);
    expect([200, 503]).toContain(response.status);
    if (response.status === 200) expect(response.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
  });
});
