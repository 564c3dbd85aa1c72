/**
 * The titles of the problems `waybill mock` answers, as the sandbox gives them (D89): a catalog
 * code's title from spec/errors.yaml, and an `about:blank` problem's the reason phrase of its
 * status, wherever Prism took the body from (an example, or one `--dynamic` generated). Prism's
 * own problems (`https://stoplight.io/prism/errors#…`: no path matched, no method matched) become
 * the `about:blank` ones the sandbox answers there (D21), a 405 with `Allow`.
 */
import { STATUS_CODES } from 'node:http';
import { catalog, type CatalogCode } from '../spec/load.ts';

/** An answer as the mock sends it; header names in lower case. */
interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Where Prism's own problem types live. */
const PRISM_ERRORS = 'https://stoplight.io/prism/errors#';

/** `answer`, a problem of it titled as the sandbox titles it; `allowed` lists the methods of the request's path, for a 405. */
export function titled<A extends Answer>(answer: A, allowed: () => string[]): A {
  if (!answer.headers['content-type']?.startsWith('application/problem+json')) return answer;
  let problem: unknown;
  try {
    problem = JSON.parse(answer.body.toString('utf8'));
  } catch {
    return answer;
  }
  if (problem === null || typeof problem !== 'object' || Array.isArray(problem)) return answer;
  const { type: given, title: was } = problem as { type?: unknown; title?: unknown };
  if (typeof given !== 'string') return answer;
  const prisms = given.startsWith(PRISM_ERRORS);
  const type = prisms ? 'about:blank' : given;
  const title = type === 'about:blank' ? STATUS_CODES[answer.status] : catalog.get(type as CatalogCode)?.title;
  if (title === undefined || (!prisms && title === was)) return answer;
  const { 'content-length': _length, ...headers } = answer.headers;
  if (prisms && answer.status === 405) headers['allow'] = allowed().join(', ');
  return { ...answer, headers, body: Buffer.from(JSON.stringify({ ...problem, type, title })) };
}
