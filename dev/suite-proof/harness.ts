/**
 * Test support for the suite-proof: the reference sandbox, provisioned as `--provision` does,
 * made to misbehave in exactly one way — a wrapped store, or a proxy in front of it rewriting
 * one thing — and the whole suite run against it. Breakages live here, in test code, never as
 * switches in the server.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { memoryLogger } from '../../server/http/log.ts';
import { startSandbox } from '../../server/start/start-sandbox.ts';
import { memoryStore } from '../../dev/testing/sandbox.ts';
import type { SqliteStore, Store } from '../../server/store/index.ts';
import { checks } from '../../conformance/checks/index.ts';
import { integrationContract } from '../../conformance/contract/contract.ts';
import { prepareTarget } from '../../conformance/setup/prepare-target.ts';
import { provisionProfile } from '../../conformance/setup/profile.ts';
import { runSuite } from '../../conformance/engine/runner.ts';
import { type RunningByteProxy, startByteProxy } from '../testing/conformance/byte-proxy.ts';
import { type ProxyRewrite, type RunningProxy, startProxy } from '../testing/conformance/proxy.ts';
import { timedStart } from '../testing/start-times.ts';
import type { Profile } from '../../conformance/engine/types/profile.ts';
import type { RunReport } from '../../conformance/engine/types/report.ts';

const ADMIN_TOKEN = 'suite-proof-admin-token';

/** One way to make the reference misbehave. */
export interface Breakage {
  wrapStore?: (store: SqliteStore) => SqliteStore;
  /** A proxy in front of the reference; it gets the provisioned profile, to know its keys. */
  proxy?: (profile: Profile) => ProxyRewrite;
  /**
   * A rewrite of the reference's answers made inside its own server, as each answer is ended:
   * its status and its body text (same length: `Content-Length` is already set). It reaches the
   * requests that go past the HTTP proxy — socket-level ones and those whose bytes must arrive
   * as written — with the reference's own connection handling.
   */
  answer?: (status: number, body: string, request: IncomingMessage | null) => { status: number; body: string } | undefined;
  /**
   * A change to the reference's own HTTP server, made before it listens: how another server's
   * HTTP layer answers what comes before any operation (an Expect, a head it cannot read, a bad
   * request pipelined behind others), for the requests a check writes on raw sockets.
   */
  server?: (server: Server) => void;
  /** An answer a byte-level proxy in front of the reference gives itself to a request, from its head; undefined passes it on. */
  rawRefuse?: (head: string) => string | undefined;
  /** What the profile says of the target's own choices (trip field names, …). */
  profile?: (profile: Profile) => Profile;
}

/**
 * A deliberately broken reference: it breaks the seed requirements `breaks` (MUST or SHOULD)
 * and must fail exactly the checks `fails`, each of which verifies one of them.
 */
export interface BrokenVariant extends Breakage {
  breaks: string[];
  fails: string[];
  /**
   * Checks that fail too although they verify none of `breaks`, because they cannot read what
   * the breakage broke (a page whose items are null cannot show a future `since` works), each
   * with that reason. Kept explicit so that every such case is seen and argued.
   */
  alsoFails?: Record<string, string>;
  /**
   * Checks that fail or pass by the timing of the run (whether another check's write lands in
   * the window they read), each with the reason; like `alsoFails`, argued one by one.
   */
  mayFail?: Record<string, string>;
}

/**
 * A target that obeys every sentence of the seeds but decides the gaps `decides` otherwise:
 * it passes without `--strict`, and fails exactly the DECISION checks `failsStrict` with it.
 */
export interface AlternativeVariant extends Breakage {
  decides: string[];
  failsStrict: string[];
  /**
   * DECISION checks of `decides` that fail or pass by the timing of the run (two writes in one
   * second, say), each with the reason; never a MUST or SHOULD check.
   */
  mayFailStrict?: Record<string, string>;
}

/** The reference over `store` on an ephemeral port; `answer` rewrites its answers as they are ended, `change` its server. */
async function startReference(store: Store, answer: Breakage['answer'], change: Breakage['server']): Promise<{ url: string; close(): Promise<void> }> {
  return startSandbox({
    store,
    log: memoryLogger(),
    adminToken: ADMIN_TOKEN,
    bodyIdleTimeoutMs: 1000,
    around: (app) =>
      answer === undefined
        ? app
        : // The server makes requests and responses with the app's prototypes (createHttpServer): the wrapper carries them.
          (Object.assign((request: IncomingMessage, response: ServerResponse) => {
            const end = response.end.bind(response) as (chunk?: unknown, ...rest: unknown[]) => ServerResponse;
            response.end = ((chunk?: unknown, ...rest: unknown[]) => {
              const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : '';
              const changed = response.headersSent ? undefined : answer(response.statusCode, text, request);
              if (changed === undefined) return end(chunk, ...rest);
              response.statusCode = changed.status;
              return end(changed.body, ...rest.filter((item) => typeof item === 'function'));
            }) as ServerResponse['end'];
            app(request as Parameters<typeof app>[0], response as Parameters<typeof app>[1]);
          }, { request: app.request, response: app.response }) as unknown as typeof app),
    beforeListen: (server) => {
      if (answer !== undefined) {
        // Answers the server writes straight to a socket (a request it cannot parse, a body cut short).
        server.prependListener('clientError', (_error: Error, socket: Socket) => {
          const end = socket.end.bind(socket) as (data?: unknown) => Socket;
          socket.end = ((data?: unknown) => {
            const match = typeof data === 'string' ? /^HTTP\/1\.1 (\d{3}) [^\r]*([\s\S]*?\r\n\r\n)([\s\S]*)$/.exec(data) : null;
            const changed = match ? answer(Number(match[1]), match[3]!, null) : undefined;
            return end(match && changed ? `HTTP/1.1 ${changed.status} Changed${match[2]}${changed.body}` : data);
          }) as Socket['end'];
        });
      }
      change?.(server);
    },
  });
}

/** An `answer` rewrite that gives status `to` (and the problem's `status` member) where the reference answered `from` and `when` holds. */
export function restatusAnswer(from: number, to: number, when: (body: string) => boolean = () => true): NonNullable<Breakage['answer']> {
  return (status, body) => (status === from && when(body) ? { status: to, body: body.replace(`"status":${from}`, `"status":${to}`) } : undefined);
}

/** Runs the whole registry against the reference changed by `breakage`, provisioned as --provision does. */
export async function runAgainst(breakage: Breakage = {}, options: { strict?: boolean } = {}): Promise<RunReport> {
  const store = await memoryStore();
  const server = await timedStart('suite-proof reference', () => startReference(breakage.wrapStore ? breakage.wrapStore(store) : store, breakage.answer, breakage.server));
  let proxy: RunningProxy | undefined;
  let rawProxy: RunningByteProxy | undefined;
  try {
    const provisioned = await provisionProfile(server.url, ADMIN_TOKEN, 30_000);
    if (breakage.proxy) proxy = await startProxy(server.url, breakage.proxy(provisioned));
    if (breakage.rawRefuse) rawProxy = await startByteProxy(server.url, { refuse: breakage.rawRefuse });
    const target = proxy?.url ?? server.url;
    // The control plane goes through the proxy too, so a variant can break what it answers.
    const profile = (breakage.profile ?? ((same: Profile) => same))({ ...provisioned, target, ...(proxy ? { sandbox: { ...provisioned.sandbox!, url: `${proxy.url}/sandbox/v1` } } : {}) });
    // As the command does: the preflight and the pools read before the run, so that a breakage read there as the user's mistake fails the proof.
    const prepared = await prepareTarget(target, profile, checks, 5000, { name: 'the provisioned profile', refillable: false });
    return await runSuite({ checks, profile: prepared.profile, target, rawTarget: rawProxy?.url ?? server.url, contract: integrationContract, concurrency: 4, seed: 11, timeoutMs: 5000, strict: options.strict ?? false });
  } finally {
    await proxy?.close();
    await rawProxy?.close();
    await server.close();
  }
}

/** Ids of the checks that ended `fail`, sorted. */
export const failed = (report: RunReport) => report.results.filter((result) => result.outcome === 'fail').map((result) => result.id).sort();
/** `id: message` of the checks that ended `error` (the suite broke). */
export const errored = (report: RunReport) => report.results.filter((result) => result.outcome === 'error').map((result) => `${result.id}: ${result.error?.message}`);
/** `id: reason` of the checks that were skipped. */
export const skipped = (report: RunReport) => report.results.filter((result) => result.outcome === 'skip').map((result) => `${result.id}: ${result.reason}`);

/** The `index`-th of `count` slices of `entries`, so the matrix runs spread over the test workers. */
export function slice<T>(entries: Record<string, T>, index: number, count: number): [string, T][] {
  return Object.entries(entries).filter((_, position) => position % count === index);
}
