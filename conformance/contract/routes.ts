/** Names the contract operation an exchange hit, by method and path template. */
import type { Route } from '../engine/types/contract.ts';

/** Finds the operationId of a request URL; null for a URL outside `base` or a route the contract lacks. */
export type RouteMatcher = (method: string, url: string) => string | null;

/** A matcher over `routes`, for requests under the base URL `base` (whose own path is a prefix). */
export function createRouteMatcher(routes: readonly Route[], base: string): RouteMatcher {
  const baseUrl = new URL(base);
  const prefix = baseUrl.pathname.replace(/\/+$/, '');
  const compiled = routes.map((route) => ({
    operationId: route.operationId,
    method: route.method.toUpperCase(),
    pattern: new RegExp(
      `^${route.path
        .split(/(\{[^}]+\})/)
        .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('')}$`,
    ),
  }));
  return (method, url) => {
    const parsed = new URL(url);
    if (parsed.origin !== baseUrl.origin || !parsed.pathname.startsWith(prefix)) return null;
    const path = parsed.pathname.slice(prefix.length);
    const upper = method.toUpperCase();
    return compiled.find((route) => route.method === upper && route.pattern.test(path))?.operationId ?? null;
  };
}
