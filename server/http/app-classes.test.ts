/**
 * The requests and responses the server makes are objects V8 keeps in fast mode, with the
 * app's prototypes from birth: made by real subclasses of Node's classes, not by functions
 * that call Node's constructors on an object made by another (which turned every response
 * into a dictionary-mode object, every property of it read and written the slow way), and
 * never given another prototype by Express afterwards.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../start/start-sandbox.ts';
import { consoleLogger } from './log.ts';
import { createHttpServer, deriveAppClasses, listen } from './server.ts';

// V8's own test of an object's mode, compiled once the syntax is allowed.
setFlagsFromString('--allow-natives-syntax');
const hasFastProperties = new Function('object', 'return %HasFastProperties(object)') as (object: object) => boolean;

/** What a handler saw of the objects it was given. */
interface Seen {
  requestFast: boolean;
  responseFast: boolean;
  requestPrototype: object;
  responsePrototype: object;
}
const seenOf = (req: IncomingMessage, res: ServerResponse): Seen => ({
  requestFast: hasFastProperties(req),
  responseFast: hasFastProperties(res),
  requestPrototype: Object.getPrototypeOf(req) as object,
  responsePrototype: Object.getPrototypeOf(res) as object,
});

describe('the check itself', () => {
  it('tells a dictionary-mode object from a fast one', () => {
    const slow: Record<string, number> = {};
    for (let n = 0; n < 2000; n++) slow[`p${n}`] = n;
    for (let n = 0; n < 2000; n++) delete slow[`p${n}`];
    expect(hasFastProperties({ a: 1 })).toBe(true);
    expect(hasFastProperties(slow)).toBe(false);
  });
});

describe('an Express app served by createHttpServer', () => {
  let base: string;
  let close: () => Promise<void>;
  let seen: Seen | undefined;
  const app = express();
  beforeAll(async () => {
    app.get('/look', (req, res) => {
      seen = seenOf(req, res);
      res.status(200).json({ ok: true });
    });
    const server = createHttpServer(app);
    base = await listen(server, 0, '127.0.0.1');
    close = () => new Promise((resolve) => server.close(() => resolve()));
  });
  afterAll(() => close());

  it('hands Express requests and responses in fast mode, with the prototypes Express gives them', async () => {
    const answer = await fetch(`${base}/look`);
    expect(answer.status).toBe(200);
    expect(seen).toEqual({ requestFast: true, responseFast: true, requestPrototype: app.request, responsePrototype: app.response });
  });

  it('makes classes whose name nothing redefined (a renamed response class kept V8 from optimizing Node’s request handling)', () => {
    const { IncomingMessage: request, ServerResponse: response } = deriveAppClasses(app);
    for (const made of [request, response]) expect(Object.getOwnPropertyDescriptor(made, 'name')).toMatchObject({ value: '', writable: false });
  });

  it('derives once: a second call keeps the classes', () => {
    const first = deriveAppClasses(app);
    expect(deriveAppClasses(app)).toEqual(first);
    expect(first.ServerResponse.prototype).toBe(app.response);
  });
});

describe('the sandbox', () => {
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  const seen: Seen[] = [];
  const listeners: { finish: number; close: number }[] = [];
  beforeAll(async () => {
    sandbox = await startSandbox({
      store: ':memory:',
      log: consoleLogger({ quiet: true }),
      around: (app) =>
        Object.assign(
          (req: IncomingMessage, res: ServerResponse) => {
            const finishing = res.listenerCount('finish');
            app(req, res);
            seen.push(seenOf(req, res));
            listeners.push({ finish: res.listenerCount('finish') - finishing, close: res.listenerCount('close') });
          },
          { request: app.request, response: app.response },
        ),
    });
  });
  afterAll(() => sandbox.close());

  it('keeps an integration call (dispatched) and a control-plane call (through Express) in fast mode', async () => {
    expect((await fetch(`${sandbox.url}/api/v1/integration/whoami`)).status).toBe(401);
    expect((await fetch(`${sandbox.url}/sandbox/v1/tenants`)).status).toBe(401);
    expect(seen).toHaveLength(2);
    for (const one of seen) expect(one).toMatchObject({ requestFast: true, responseFast: true });
    // Express found the prototypes it gives already there, and changed none.
    expect(seen[1]!.requestPrototype).toBe(seen[0]!.requestPrototype);
    expect(seen[1]!.responsePrototype).toBe(seen[0]!.responsePrototype);
  });

  it('adds no listener to an integration call’s response: its connection and its log entry are kept by hooks of its class', async () => {
    listeners.length = 0;
    expect((await fetch(`${sandbox.url}/api/v1/integration/whoami`)).status).toBe(401);
    expect(listeners).toEqual([{ finish: 0, close: 0 }]);
  });
});
