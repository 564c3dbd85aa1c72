/** Authentication (D1, D3, D22) and scopes (D2). */
import type { NextFunction, Request, Response } from 'express';
import type { KeyPrincipal, Keys, RevokedKeyOwner } from '../tenants/keys.ts';
import { contextOf, principalOf } from './context.ts';
import { aboutBlank } from './problem.ts';

const CHALLENGE = 'ApiKey realm="waybill", header="X-Api-Key", Bearer realm="waybill"';

// requirement: D1
/** The key a request presents: `X-Api-Key`, else `Authorization: Bearer` (D1). */
function presentedKey(req: Request): string | undefined {
  // Node's parsed headers directly (what Express's `get` answers, with a lookup less).
  const header = req.headers['x-api-key'];
  if (typeof header === 'string' && header !== '') return header;
  const authorization = req.headers.authorization;
  return authorization === undefined ? undefined : /^Bearer[ ]+(\S+)\s*$/i.exec(authorization)?.[1];
}

/** The owner of the revoked key a refused request presented (D48: logged under that tenant). */
const revokedKeys = new WeakMap<Response, RevokedKeyOwner>();

/** Whose revoked key the request of `res` presented, when auth refused it for that; undefined otherwise. */
export function revokedKeyOf(res: Response): RevokedKeyOwner | undefined {
  return revokedKeys.get(res);
}

// requirement: int.auth.unauthenticated
// requirement: int.auth.one-tenant
// requirement: int.auth.revoked
// requirement: D3
/**
 * Middleware: resolves the API key to its tenant, or answers 401 `about:blank` with
 * `WWW-Authenticate`. The shared rate limit runs it again, from the database, for a request
 * whose tenant another process changed (D81).
 */
export function makeAuth(options: { keys: Keys }) {
  return function auth(req: Request, res: Response, next: NextFunction): void {
    const key = presentedKey(req);
    if (key === undefined) {
      next(aboutBlank(401, 'An API key is required: send it in the X-Api-Key header or as Authorization: Bearer.', { 'WWW-Authenticate': CHALLENGE }));
      return;
    }
    const found = options.keys.authenticate(key);
    // A key the cache holds is answered at once: the hot path awaits nothing.
    if (found instanceof Promise) found.then((principal) => admit(key, principal, res, next), next);
    else admit(key, found, res, next);
  };

  /** Lets the request of `res` on as `principal`, or answers 401 (noting whose revoked key it was). */
  function admit(key: string, principal: KeyPrincipal | null, res: Response, next: NextFunction): void {
    if (principal !== null) {
      contextOf(res).principal = principal;
      next();
      return;
    }
    // Authenticated again (D81), a request refused now is no key's, as if refused at first.
    contextOf(res).principal = undefined;
    const refuse = () => next(aboutBlank(401, 'The API key is not valid or was revoked.', { 'WWW-Authenticate': CHALLENGE }));
    options.keys.revokedOwner(key).then((owner) => {
      if (owner !== null) revokedKeys.set(res, owner);
      refuse();
    }, next);
  }
}

// requirement: int.auth.scope
// requirement: int.whoami.no-scope
// requirement: D2
// requirement: D3
/** Middleware: answers 403 `about:blank` unless the key carries `scope` (D2, D3). */
export function makeRequireScope(scope: string | null) {
  return function requireScope(_req: Request, res: Response, next: NextFunction): void {
    if (scope !== null && !principalOf(res).scopes.includes(scope)) {
      next(aboutBlank(403, `This operation requires the scope ${scope}.`));
      return;
    }
    next();
  };
}
