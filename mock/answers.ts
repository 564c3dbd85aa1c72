/**
 * What `waybill mock` changes in Prism's answers, and nothing more: a request Prism finds
 * invalid gets the problem the sandbox would answer (violations.ts), with malformed JSON too,
 * which Prism answers in a body of its own; the orders and trips it serves are coherent
 * (coherent.ts); and every problem is titled as the sandbox titles it, Prism's own ones (no
 * path, no method) answered as the sandbox's (titles.ts). Every other answer passes as Prism
 * gave it.
 */
import { operations, type OperationSpec } from '../spec/load.ts';
import { coherentOrder, coherentPage, type FeedKind } from './coherent.ts';
import { titled } from './titles.ts';
import { bodyProblem, requestViolations, violationProblem } from './violations.ts';

/** A request as the mock received it; header names in lower case. */
export interface MockRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** An answer, Prism's or the mock's; header names in lower case. */
export interface MockAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Each operation of the contract with a pattern its paths match. */
const routes = [...operations.values()].map((operation) => ({ operation, pattern: new RegExp(`^${operation.path.replace(/\{[^}]+\}/g, '[^/]+')}$`) }));

/** The operation `method` and `path` call, if the contract has it. */
function operationOf(method: string, path: string): OperationSpec | undefined {
  return routes.find((route) => route.operation.method === method.toUpperCase() && route.pattern.test(path))?.operation;
}

/** Whether `operation` answers 200 with one order (the writes). */
const answersOrder = (operation: OperationSpec) => (operation.responses['200']?.content['application/json'] as { $ref?: string } | undefined)?.$ref === '#/components/schemas/Order';

/** `text` parsed as JSON; undefined when it is not JSON. */
function parsed(text: Buffer): unknown {
  try {
    return JSON.parse(text.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** `answer` with `body` as JSON of `type`, at `status`. */
function withJson(answer: MockAnswer, status: number, body: unknown, type: string): MockAnswer {
  const { 'sl-violations': _violations, 'content-length': _length, 'content-type': _type, ...headers } = answer.headers;
  return { status, headers: { ...headers, 'content-type': type }, body: Buffer.from(JSON.stringify(body)) };
}

/** Whether the answer to `request` was generated rather than an example: `--dynamic`, unless the request's `Prefer` says otherwise. */
function generated(request: MockRequest, dynamic: boolean): boolean {
  const asked = /(?:^|[,;\s])dynamic=(true|false)\b/.exec(request.headers['prefer'] ?? '')?.[1];
  return asked === undefined ? dynamic : asked === 'true';
}

/** Prism's `answer` to `request` as the mock sends it (see the module comment); `dynamic` is the mock's `--dynamic`. */
export function reshape(request: MockRequest, answer: MockAnswer, dynamic: boolean): MockAnswer {
  const { pathname } = new URL(request.url, 'http://mock.invalid');
  return titled(reshaped(request, answer, dynamic), () => routes.filter((route) => route.pattern.test(pathname)).map((route) => route.operation.method));
}

/** `answer` with the mock's own problems and coherent data, before its problem is titled. */
function reshaped(request: MockRequest, answer: MockAnswer, dynamic: boolean): MockAnswer {
  const url = new URL(request.url, 'http://mock.invalid');
  const operation = operationOf(request.method, url.pathname);
  if (operation === undefined) return answer;
  const requestId = answer.headers['x-request-id'];
  const violations = requestViolations(answer.headers['sl-violations']);
  if ((answer.status === 400 || answer.status === 422) && violations.length > 0) {
    const body = request.body.length === 0 ? undefined : parsed(request.body);
    const problem = violationProblem(operation, { path: url.pathname, query: url.searchParams, body, prefer: request.headers['prefer'] }, violations, requestId);
    return withJson(answer, 400, problem, 'application/problem+json');
  }
  const json = answer.headers['content-type']?.includes('json') ? parsed(answer.body) : undefined;
  if (answer.status === 400 && (json as { error?: { code?: unknown } } | undefined)?.error?.code === 'invalid_json') {
    return withJson(answer, 400, bodyProblem('The body is not valid JSON.', url.pathname, requestId, request.headers['prefer']), 'application/problem+json');
  }
  if (answer.status !== 200 || json === null || typeof json !== 'object') return answer;
  if (operation.operationId === 'orderFeed' || operation.operationId === 'tripFeed') {
    const limit = url.searchParams.get('limit');
    const page = coherentPage(json as { items?: unknown }, operation.operationId as FeedKind, limit === null ? undefined : Number(limit), generated(request, dynamic));
    return withJson(answer, 200, page, answer.headers['content-type']!);
  }
  if (answersOrder(operation)) return withJson(answer, 200, coherentOrder(json as Record<string, unknown>), answer.headers['content-type']!);
  return answer;
}
