/**
 * Idempotency-Key (D13, D26). `begin` runs as soon as the headers are in: it refuses a
 * key whose first request is still running (429 `idempotency.inFlight`), even while that
 * request is still sending its body. `resolve` runs once the body is read: it replays a
 * stored answer, refuses a key reused for another request, or arranges for this request's
 * answer to be stored: the answers of a request that passed validation, but 5xx and 429.
 * Where several processes share a PostgreSQL database, a key in flight is held in the
 * database too (in-flight.ts, D82), so that a request in any process finds it held.
 */
import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { InFlightLease, SharedInFlight } from './in-flight.ts';
import type { Idempotency } from './store.ts';
import { contextOf, principalOf } from '../http/context.ts';
import { fieldError, problem } from '../http/problem.ts';

const HEADER = 'Idempotency-Key';
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

/** The answer to a request whose key's first request is still running. */
export const inFlightProblem = (retryAfterSeconds = 1) =>
  problem('idempotency.inFlight', 'A request with the same Idempotency-Key is still in flight; retry after the delay in Retry-After.', undefined, { headers: { 'Retry-After': String(retryAfterSeconds) } });

/** Why an Idempotency-Key is refused: not 1 to 255 visible ASCII characters, or already used for another request. */
export const KEY_REFUSALS = {
  shape: 'Idempotency-Key must be 1 to 255 visible ASCII characters.',
  reused: 'The Idempotency-Key was already used for a different request.',
} as const;

/** The 400 refusing the Idempotency-Key `key` (null: none to echo) for `reason`. */
export function keyRefused(reason: keyof typeof KEY_REFUSALS, key: string | null) {
  const message = KEY_REFUSALS[reason];
  return problem('api.malformed_request', message, [fieldError(HEADER, 'api.malformed_request', message, key)]);
}

// requirement: D13
// requirement: D26
/**
 * The two idempotency middlewares of the write operations, sharing one in-flight set of
 * this process, and with `shared` (PostgreSQL) the keys in flight in every process.
 */
export function makeIdempotency(options: { store: Idempotency; shared?: SharedInFlight }) {
  const inFlight = new Set<string>();
  const keyOf = (req: Request) => req.get(HEADER);

  function begin(req: Request, res: Response, next: NextFunction): void {
    const key = keyOf(req);
    if (key === undefined) {
      next();
      return;
    }
    if (!VALID_KEY.test(key)) {
      next(keyRefused('shape', key));
      return;
    }
    const { tenantId } = principalOf(res);
    const slot = `${tenantId}\n${key}`;
    // requirement: int.idempotency.in-flight
    // requirement: int.errors.rate-limit-429
    // requirement: cat.idempotency.in-flight
    if (inFlight.has(slot)) {
      next(inFlightProblem());
      return;
    }
    inFlight.add(slot);
    if (options.shared === undefined) {
      // Once only: after the answer, the slot may be another request's with the same key.
      let held = true;
      const free = () => {
        if (held) inFlight.delete(slot);
        held = false;
        return undefined;
      };
      contextOf(res).letGoOfKey = free;
      res.on('close', free);
      next();
      return;
    }
    holdShared(options.shared, tenantId, key, slot, res, next);
  }

  // requirement: D82
  /**
   * Holds the key in the database as well, or answers 429 when a request of any process
   * holds it. The key is let go once the answer is stored and before it is sent (or when the
   * client goes); this process's slot is freed once the database's row is gone, so that its
   * next request with the key never finds its own row still there.
   */
  function holdShared(shared: SharedInFlight, tenantId: string, key: string, slot: string, res: Response, next: NextFunction): void {
    let lease: InFlightLease | null | undefined;
    let closed = false;
    let released: Promise<void> | undefined;
    const free = () => inFlight.delete(slot);
    const release = (held: InFlightLease) => (released ??= held.release().finally(free));
    // The client may go before the database answers: whichever comes second lets the key go.
    res.on('close', () => {
      closed = true;
      if (lease) release(lease);
    });
    shared.take(tenantId, key).then(
      (taken) => {
        lease = taken;
        if (taken === null) {
          free();
          if (!closed) next(inFlightProblem());
        } else if (closed) release(taken);
        else {
          contextOf(res).letGoOfKey = () => release(taken);
          next();
        }
      },
      (error: unknown) => {
        lease = null;
        free();
        next(error);
      },
    );
  }

  async function resolve(req: Request, res: Response, next: NextFunction): Promise<void> {
    const key = keyOf(req);
    if (key === undefined) {
      next();
      return;
    }
    const { tenantId } = principalOf(res);
    const context = contextOf(res);
    const fingerprint = createHash('sha256')
      .update(`${req.method} ${req.originalUrl.split('?')[0]}\n`)
      .update(context.rawBody ?? Buffer.alloc(0))
      .digest('hex');
    const stored = await options.store.find(tenantId, key);
    if (stored !== undefined) {
      if (stored.fingerprint !== fingerprint) {
        next(keyRefused('reused', key));
        return;
      }
      const replay = () => {
        res.status(stored.status).set('Idempotent-Replayed', 'true');
        if (stored.contentType !== null) res.type(stored.contentType).send(stored.body);
        else res.end();
      };
      const lettingGo = context.letGoOfKey?.();
      if (lettingGo === undefined) replay();
      else await lettingGo.then(replay, replay);
      return;
    }
    context.onAnswer = (status, contentType, body) => {
      // Only a request that passed validation ran: a refusal of the request itself (400) is
      // not a verdict on the order, and the corrected request may use the key (D13).
      if (context.input === undefined || status >= 500 || status === 429) return undefined;
      return options.store.save(tenantId, key, { fingerprint, status, contentType, body });
    };
    next();
  }

  return { begin, resolve };
}
