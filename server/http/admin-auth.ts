/**
 * The control plane's authentication (D30): `Authorization: Bearer <admin token>`, compared
 * in constant time. Anything else, an integration API key included, is 401 `about:blank`
 * with `WWW-Authenticate` (D3).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { aboutBlank } from './problem.ts';

const CHALLENGE = 'Bearer realm="waybill-sandbox"';

const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();

/** A fresh admin token, `wba_` and 32 random base64url characters. */
export function newAdminToken(): string {
  return `wba_${randomBytes(24).toString('base64url')}`;
}

// requirement: D30
/** Middleware: lets a request through only with the admin token as its bearer token. */
export function makeAdminAuth(options: { token: string }) {
  // Hashing both sides gives equal lengths, so the comparison takes the same time for any token.
  const expected = sha256(options.token);
  return function adminAuth(req: Request, _res: Response, next: NextFunction): void {
    const presented = /^Bearer[ ]+(\S+)\s*$/i.exec(req.get('authorization') ?? '')?.[1];
    if (presented === undefined) {
      next(aboutBlank(401, 'The control plane needs the admin token: send Authorization: Bearer <admin token>.', { 'WWW-Authenticate': CHALLENGE }));
      return;
    }
    if (!timingSafeEqual(sha256(presented), expected)) {
      next(aboutBlank(401, 'The admin token is not valid.', { 'WWW-Authenticate': `${CHALLENGE}, error="invalid_token"` }));
      return;
    }
    next();
  };
}
