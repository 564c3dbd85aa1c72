/**
 * The statuses the contract declares for a request, by the method and path it was sent with:
 * the responses of the operation of spec/openapi.yaml or spec/sandbox.yaml it reaches, or, for a
 * request no operation takes, the answers D21 and D60 give before any operation is known.
 */
import { parseHead } from '../../conformance/transport/http-message.ts';
import { operations } from '../../spec/load.ts';
import { templatePattern } from '../../server/http/fallback.ts';
import { SANDBOX_PREFIX, sandboxOperations } from '../../server/control-plane/routes.ts';

/** What a request to no operation may be answered: 404 or 405 (D21); 400, 408 or 417 for a request the HTTP layer refuses (D60). */
export const NO_OPERATION_STATUSES: ReadonlySet<number> = new Set([400, 404, 405, 408, 417]);

const routes = [
  ...[...operations.values()].map((op) => ({ document: 'integration', op, path: op.path })),
  ...sandboxOperations.map((op) => ({ document: 'sandbox', op, path: `${SANDBOX_PREFIX}${op.path}` })),
].map(({ document, op, path }) => ({
  name: `${document === 'sandbox' ? 'sandbox.' : ''}${op.operationId}`,
  method: op.method,
  pattern: templatePattern(path),
  statuses: new Set(Object.keys(op.responses).map(Number)),
}));

/** The operation a request reaches (HEAD reaches a GET), named `orderFeed` or `sandbox.createTenant`, and the statuses declared for it. */
export function declaredFor(method: string, path: string): { operation: string | null; statuses: ReadonlySet<number> } {
  const upper = method === 'HEAD' ? 'GET' : method;
  const route = routes.find((candidate) => candidate.method === upper && candidate.pattern.test(path));
  return route === undefined ? { operation: null, statuses: NO_OPERATION_STATUSES } : { operation: route.name, statuses: route.statuses };
}

/** Paths of the two documents; the rest (console, docs, health) are the workbench's pages, which the contract does not describe. */
const API_PATH = /^\/(?:api|sandbox)\//;

/** Why `status` is not declared for a request of `method` to `path` (null: no request line could be read), or null when it is. */
export function undeclaredStatus(request: { method: string; path: string } | null, status: number): string | null {
  if (request !== null && !API_PATH.test(request.path)) return null;
  const { method, path } = request ?? { method: '', path: '' };
  const { operation, statuses } = declaredFor(method, path);
  if (statuses.has(status)) return null;
  return operation === null ? `a ${status} to ${request === null ? 'a request that could not be read' : `${method} ${path.slice(0, 80)}, which no operation takes`} (D21, D60: ${[...statuses].join(', ')})` : `a ${status} on ${operation}, whose contract declares ${[...statuses].join(', ')}`;
}

/**
 * The method and path of each request in raw bytes, in order, as far as they can be read (null
 * for one whose request line is no HTTP/1.1 request line): what each answer on the connection
 * is attributed to.
 */
export function requestLines(bytes: Buffer): ({ method: string; path: string } | null)[] {
  const found: ({ method: string; path: string } | null)[] = [];
  let at = 0;
  while (at < bytes.length) {
    const head = parseHead(bytes.subarray(at));
    if (head === null) break;
    // Read as Node reads it, which lets spaces repeat and takes `GET /` without a version.
    const line = /^([A-Z]+) +(\/\S*)(?: +HTTP\/\d\.\d)?$/.exec(head.startLine.join(' ').trim());
    found.push(line === null ? null : { method: line[1]!, path: line[2]!.split('?')[0]! });
    const length = head.headers['content-length'] ?? '0';
    // A chunked body, or a length that is no number, ends what can be read.
    if (head.headers['transfer-encoding'] !== undefined || !/^\d+$/.test(length)) break;
    at += head.bodyStart + Number(length);
  }
  return found;
}
