/**
 * What the fuzz campaign holds of every answer, whatever was sent: no 5xx; every error is
 * `application/problem+json` whose `type` is a catalog code of that status (or `about:blank`)
 * and whose `status` is the answer's; with `requestId`, `X-Request-Id` on every answer; and
 * on a raw socket, an answer before the connection closes unless nothing asked for one.
 */
import { catalogEntryOf, mediaTypeOf, statusesOf } from '../contract/catalog-rules.ts';
import type { RawCase } from './raw-cases.ts';

/** One answer as the oracle reads it; header names in lower case. */
export interface FuzzAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** What the oracle asks beyond the seeds' problem rules. */
export interface OracleOptions {
  /** Every answer carries `X-Request-Id` (waybill's D23). */
  requestId: boolean;
}

/** What came back on a raw connection. */
export interface RawOutcome {
  /** The complete answers, in order. */
  answers: FuzzAnswer[];
  /** How the connection ended: closed by the server (after the answers, or in the middle of one), or not within the time allowed. */
  end: 'closed' | 'partial' | 'timeout';
}

/** The problem body of `text`, or a reason it is none. */
function problemOf(text: string): Record<string, unknown> | string {
  try {
    const body: unknown = JSON.parse(text);
    return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : `not a JSON object: ${text.slice(0, 80)}`;
  } catch {
    return `not JSON: ${JSON.stringify(text.slice(0, 80))}`;
  }
}

/** True when an answer is a problem: `application/problem+json` whose body is a JSON object. */
export function isProblemAnswer(answer: FuzzAnswer): boolean {
  return mediaTypeOf(answer.headers['content-type']) === 'application/problem+json' && typeof problemOf(answer.text) !== 'string';
}

/** Every way one answer breaks the oracle, as short sentences; empty when it holds. */
export function answerViolations(answer: FuzzAnswer, options: OracleOptions): string[] {
  const violations: string[] = [];
  if (answer.status >= 500) violations.push(`a ${answer.status} answer (no input may cause a server error)`);
  if (options.requestId && !answer.headers['x-request-id']) violations.push('no X-Request-Id');
  if (answer.status < 400) return violations;
  const mediaType = mediaTypeOf(answer.headers['content-type']);
  if (mediaType !== 'application/problem+json') violations.push(`a ${answer.status} error as ${mediaType || 'no Content-Type'}, not application/problem+json`);
  const problem = problemOf(answer.text);
  if (typeof problem === 'string') return [...violations, `a ${answer.status} error body ${problem}`];
  if (problem['status'] !== answer.status) violations.push(`problem status ${JSON.stringify(problem['status'])} on a ${answer.status} answer`);
  if (problem['type'] === 'about:blank') return violations;
  const entry = catalogEntryOf(problem['type']);
  if (entry === undefined) violations.push(`problem type ${JSON.stringify(problem['type'])} is neither a catalog code nor about:blank`);
  else if (!statusesOf(entry).includes(answer.status)) violations.push(`problem type ${entry.code} comes with ${statusesOf(entry).join(' or ')}, not ${answer.status}`);
  return violations;
}

/** Every way a raw connection's outcome breaks the oracle. */
export function rawViolations(item: RawCase, outcome: RawOutcome, options: OracleOptions): string[] {
  const violations = outcome.answers.flatMap((answer, index) => answerViolations(answer, options).map((text) => (outcome.answers.length > 1 ? `answer ${index + 1}: ${text}` : text)));
  if (outcome.end === 'timeout') violations.push('the connection neither answered nor closed in time (a stall)');
  if (outcome.end === 'partial') violations.push('the connection closed in the middle of an answer');
  if (outcome.answers.length === 0 && outcome.end === 'closed' && !item.unanswerable) violations.push('the connection closed without an answer');
  return violations;
}
