/** Builds the `ctx` a check runs with: recorded clients, its pool ids, the run's log and PRNG. */
import { createHttpClient, type ExchangeLog, type Recorder } from '../transport/exchange.ts';
import { createRawPipeliner, createRawSender, createRawSessionOpener } from '../transport/raw-http.ts';
import { type Redactor, redactRecord } from '../transport/redaction.ts';
import type { RouteMatcher } from '../contract/routes.ts';
import type { CheckContext, ClientRunRecord } from './types/check.ts';
import type { PoolName, Profile } from './types/profile.ts';
import type { CheckWait } from './types/report.ts';

/** Thrown by `ctx.skip`; the runner turns it into outcome `skip`. */
export class SkipSignal extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'SkipSignal';
  }
}

/** What every check of a run shares. */
export interface RunEnvironment {
  target: string;
  /** Where socket-level requests go; `target` unless a proxy stands in front of it. */
  rawTarget: string;
  profile: Profile;
  log: ExchangeLog;
  redactor: Redactor;
  matchRoute: RouteMatcher;
  timeoutMs: number;
  seed: number;
  /** Generated cases the checks that draw them add (`--fuzz N`); 0 without. */
  fuzz: number;
  userAgent: string;
  /** Values computed once per run (`ctx.shared`), by key. */
  shared: Map<string, Promise<unknown>>;
  /** What the run names what it creates (`ctx.runLabel`). */
  runLabel: string;
  /** The client runs each check recorded (`ctx.clientRun`), redacted, by check id. */
  clientRuns: Map<string, ClientRunRecord[]>;
  /** Hears the waits checks announce (`ctx.waiting`). */
  onWait?(wait: CheckWait): void;
}

/** FNV-1a hash of `text`, for seeding a check's PRNG from its id. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) value = Math.imul(value ^ text.charCodeAt(index), 0x01000193);
  return value >>> 0;
}

/** mulberry32: a small, fast PRNG that is plenty for picking test inputs. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The context of check `checkId`, holding the pool ids the runner allocated to it. */
export function createCheckContext(env: RunEnvironment, checkId: string, pools: ReadonlyMap<PoolName, string[]>): CheckContext {
  const recorder: Recorder = { log: env.log, redactor: env.redactor, matchRoute: env.matchRoute, checkId };
  const auth = env.profile.auth ?? { header: 'X-Api-Key', prefix: '' };
  const keyValue = (name: string) => env.redactor.keyValue(name);
  const common = { recorder, timeoutMs: env.timeoutMs, userAgent: env.userAgent };
  const sandbox = env.profile.sandbox;
  return {
    target: env.target,
    profile: env.profile,
    http: createHttpClient({
      ...common,
      baseUrl: env.target,
      verbatimBaseUrl: env.rawTarget,
      channel: 'api',
      auth,
      resolveKey: (key) => (key === null ? null : (keyValue(key ?? 'full') ?? key ?? null)),
    }),
    sandbox:
      sandbox === undefined
        ? null
        : createHttpClient({
            ...common,
            baseUrl: sandbox.url.replace(/\/+$/, ''),
            channel: 'sandbox',
            auth: { header: 'Authorization', prefix: 'Bearer ' },
            resolveKey: (key) => (key === null ? null : sandbox.token),
          }),
    raw: createRawSender(env.rawTarget, recorder, env.timeoutMs),
    rawSession: createRawSessionOpener(env.rawTarget, recorder, env.timeoutMs),
    rawPipeline: createRawPipeliner(env.rawTarget, recorder, env.timeoutMs),
    authHeader(key = 'full') {
      const value = keyValue(key);
      if (value === undefined) throw new Error(`authHeader: the profile has no key '${key}' (declare key:${key} in requires)`);
      return `${auth.header}: ${auth.prefix ?? ''}${value}`;
    },
    orders(pool) {
      const ids = pools.get(pool);
      if (ids === undefined) throw new Error(`orders('${pool}'): the check did not declare orders:${pool}:<n> in requires`);
      return ids;
    },
    exchanges: () => env.log.all(),
    addSecret(value, name) {
      env.redactor.add({ value, name, envVar: `WAYBILL_SECRET_${name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}` });
      for (const record of env.log.all()) redactRecord(record, env.redactor);
    },
    shared<T>(key: string, compute: () => Promise<T>): Promise<T> {
      let value = env.shared.get(key);
      if (value === undefined) {
        value = compute();
        env.shared.set(key, value);
      }
      return value as Promise<T>;
    },
    clientRun(record) {
      const redacted = { ...record, stdoutTail: env.redactor.redact(record.stdoutTail), stderrTail: env.redactor.redact(record.stderrTail) };
      env.clientRuns.set(checkId, [...(env.clientRuns.get(checkId) ?? []), redacted]);
    },
    waiting(ms, why) {
      env.onWait?.({ checkId, ms, why: env.redactor.redact(why) });
    },
    skip(reason): never {
      throw new SkipSignal(reason);
    },
    random: seededRandom(env.seed ^ hash(checkId)),
    seed: env.seed,
    fuzz: env.fuzz,
    timeoutMs: env.timeoutMs,
    runLabel: env.runLabel,
  };
}
