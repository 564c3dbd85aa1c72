/**
 * The console's one way to the server: the control plane with the admin token as a Bearer
 * header, the integration API with an API key as `X-Api-Key`. A failing call throws an
 * `ApiProblem` carrying the RFC 9457 body the server answered.
 */

import type { components } from '../../spec/openapi-types.ts';

/** One field error of a 400 problem (`FieldError` of spec/openapi.yaml). */
export type FieldError = components['schemas']['FieldError'];

/**
 * A problem as the console shows it: the members of the server's body (`ValidationProblem`,
 * whose status is any here), the `X-Request-Id` it came with, or one made up for a network
 * failure (status 0).
 */
export type Problem = Pick<components['schemas']['ValidationProblem'], 'type' | 'title' | 'errors'> & {
  status: number;
  detail?: string | null;
  requestId?: string;
};

/** A failed call: the problem the server answered (or one made up for a network failure). */
export class ApiProblem extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail ?? problem.title);
    this.name = 'ApiProblem';
  }
}

/** The field errors of `problem` for the form field `name` (`lines` takes `lines[0].quantity`). */
export function errorsFor(problem: Problem | null | undefined, name: string): FieldError[] {
  return (problem?.errors ?? []).filter((e) => e.field === name || e.field.startsWith(`${name}[`) || e.field.startsWith(`${name}.`));
}

type Query = Record<string, string | number | string[] | undefined | null>;

function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    for (const one of Array.isArray(value) ? value : [value]) params.append(name, String(one));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

async function send(method: string, url: string, headers: Record<string, string>, body?: unknown): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch (error) {
    throw new ApiProblem({ type: 'about:blank', title: 'Network error', status: 0, detail: `The sandbox did not answer: ${String(error)}` });
  }
  if (response.status === 204) return null;
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!response.ok) {
    const problem = (parsed && typeof parsed === 'object' ? parsed : {}) as Partial<Problem>;
    throw new ApiProblem({
      type: problem.type ?? 'about:blank',
      title: problem.title ?? (response.statusText || 'Error'),
      status: problem.status ?? response.status,
      detail: problem.detail ?? (parsed ? null : text.slice(0, 200) || null),
      errors: problem.errors ?? [],
      requestId: response.headers.get('X-Request-Id') ?? undefined,
    });
  }
  return parsed;
}

/** A client of the control plane under `/sandbox/v1` with `token`. */
export function controlPlane(token: string) {
  const headers = { Authorization: `Bearer ${token}`, Accept: 'application/json' };
  return {
    get: <T>(path: string, query?: Query) => send('GET', withQuery(`/sandbox/v1${path}`, query), headers) as Promise<T>,
    post: <T>(path: string, body?: unknown) => send('POST', `/sandbox/v1${path}`, headers, body) as Promise<T>,
    put: <T>(path: string, body: unknown) => send('PUT', `/sandbox/v1${path}`, headers, body) as Promise<T>,
    patch: <T>(path: string, body: unknown) => send('PATCH', `/sandbox/v1${path}`, headers, body) as Promise<T>,
    del: <T = null>(path: string) => send('DELETE', `/sandbox/v1${path}`, headers) as Promise<T>,
  };
}

/** The control-plane client type. */
export type ControlPlane = ReturnType<typeof controlPlane>;

/** A GET of the integration API under `/api/v1/integration` as the key `secret` sees it. */
export function integrationGet<T>(secret: string, path: string, query?: Query): Promise<T> {
  return send('GET', withQuery(`/api/v1/integration${path}`, query), { 'X-Api-Key': secret, Accept: 'application/json' }) as Promise<T>;
}

/** A path segment, escaped. */
export const seg = (value: string | number) => encodeURIComponent(String(value));
