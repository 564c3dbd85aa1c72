/** What the middleware chain learns about a request, kept on `res.locals`. */
import type { Response } from 'express';
import type { InjectedFault } from '../faults/plan.ts';
import type { KeyPrincipal } from '../tenants/keys.ts';
import type { LoggedPage } from '../request-log/store.ts';

/** The request's validated inputs, coerced to their schema types. */
export interface ValidInput {
  query: Record<string, unknown>;
  params: Record<string, string>;
  body: unknown;
}

/** The per-request state the middleware shares. */
export interface RequestContext {
  requestId: string;
  /** The integration operation the request reached (its route names it), for the request log. */
  operation?: string;
  principal?: KeyPrincipal;
  input?: ValidInput;
  /** The request body's bytes as received (for the Idempotency-Key fingerprint). */
  rawBody?: Buffer;
  /** Called with every answer this request sends (the idempotency store listens); the answer waits for a promise it returns. */
  onAnswer?: (status: number, contentType: string | null, body: string) => Promise<void> | undefined;
  /**
   * Lets go of the request's Idempotency-Key once its answer is stored and before it is sent,
   * so that a retry made on seeing the answer never finds the key still in flight (D13); the
   * answer waits for a promise it returns.
   */
  letGoOfKey?: () => Promise<void> | undefined;
  /** The orders and trips this request changed (the request log records them, D48). */
  changed?: { orderIds: string[]; tripIds: string[] };
  /** The fault injected into this request (D51), which the request log marks. */
  fault?: InjectedFault;
  /** The feed page this request answered, as the request log keeps it (D48). */
  feedPage?: LoggedPage;
}

/** The request context of `res`. */
export function contextOf(res: Response): RequestContext {
  return res.locals as RequestContext;
}

/** The authenticated principal; throws if auth did not run (a wiring bug, answered 500). */
export function principalOf(res: Response): KeyPrincipal {
  const principal = contextOf(res).principal;
  if (principal === undefined) throw new Error('route reached without authentication');
  return principal;
}
