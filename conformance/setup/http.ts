/**
 * The plain HTTP of what happens around a run (the preflight, refilling a profile, archiving
 * the run's tenants): not recorded in the run's exchange log, and a request that gets no
 * answer at all is a tool error naming what was being done.
 */
import { WaybillError } from '../../cli/errors.ts';
import { parseJson } from '../transport/exchange.ts';
import { describeNetworkError } from '../transport/network-error.ts';

/** An answer as the setup steps read it. */
export interface SetupAnswer {
  status: number;
  /** The media type, lower case, without parameters; empty when none was sent. */
  mediaType: string;
  text: string;
  /** The body parsed as JSON, or undefined. */
  json: unknown;
  headers: Headers;
}

/** What a request of a setup step sends. */
export interface SetupRequest {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
}

/**
 * Sends `request` to `url` and reads the whole answer; no redirect is followed. A request
 * that gets no answer throws a tool error `<what>: <why>` (connection refused, timeout, …).
 */
export async function send(url: string, request: SetupRequest, timeoutMs: number, what: string): Promise<SetupAnswer> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: request.method ?? 'GET',
      headers: { ...(request.body === undefined ? {} : { 'content-type': 'application/json' }), ...request.headers },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    throw new WaybillError(`${what}: ${describeNetworkError(error, timeoutMs)}`, 'tool');
  }
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  return { status: response.status, mediaType, text, json: parseJson(text), headers: response.headers };
}

/** The `type` of a problem answer, for a message: ` (problem type orders.notFound)`, or empty. */
export function problemTypeOf(answer: SetupAnswer): string {
  const type = (answer.json as { type?: unknown } | undefined)?.type;
  return typeof type === 'string' ? ` (problem type ${type})` : '';
}

/** A JSON object body, or undefined. */
export function objectBody(answer: SetupAnswer): Record<string, unknown> | undefined {
  const { json } = answer;
  return json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
}

/** A tool error unless something answers HTTP at `target` (any status): nothing there is the first thing to say. */
export async function assertAnswers(target: string): Promise<void> {
  try {
    const response = await fetch(target, { signal: AbortSignal.timeout(10_000) });
    await response.arrayBuffer();
  } catch (error) {
    throw new WaybillError(`nothing answers at ${target}: ${describeNetworkError(error, 10_000)}; start the sandbox (waybill serve) or give the URL it listens on`, 'tool');
  }
}
