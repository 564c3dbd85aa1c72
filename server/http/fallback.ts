/** Unknown paths and methods (D21): 404, or 405 with `Allow` when the path exists under another method. */
import type { NextFunction, Request, Response } from 'express';
import { aboutBlank } from './problem.ts';

/** A path template of the spec and the methods it accepts. */
export interface RouteShape {
  path: string;
  methods: string[];
}

/** A matcher for an OpenAPI path template: `{name}` is one non-empty segment, captured in order; one trailing slash is allowed. */
export function templatePattern(path: string): RegExp {
  const escaped = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '([^/]+)');
  return new RegExp(`^${escaped}/?$`);
}

// requirement: D21
/** Middleware answering every request no route took. */
export function makeFallback(routes: RouteShape[]) {
  const allowed = new Map<RegExp, string[]>();
  for (const { path, methods } of routes) {
    const withHead = methods.includes('GET') ? [...methods, 'HEAD'] : methods;
    allowed.set(templatePattern(path), withHead);
  }
  return function fallback(req: Request, res: Response, next: NextFunction): void {
    for (const [pattern, methods] of allowed) {
      if (pattern.test(req.path)) {
        next(aboutBlank(405, `${req.method} is not allowed on this path; allowed: ${methods.join(', ')}.`, { Allow: methods.join(', ') }));
        return;
      }
    }
    next(aboutBlank(404, `No operation at ${req.path.slice(0, 200)}.`));
  };
}
