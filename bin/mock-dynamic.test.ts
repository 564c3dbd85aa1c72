/**
 * `waybill mock --dynamic`: every answer Prism generates from the spec's schemas is one the
 * spec allows. For each operation and each status it documents, 100 generated answers are
 * drawn and checked with the conformance suite's own response validators: against the
 * document as written, and against what the seeds fix (a 400 never carries `overridable`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responseViolations, seedResponseViolations } from '../conformance/checks/support/response-contract.ts';
import type { ExchangeRecord } from '../conformance/types.ts';
import { type Json, openapi, type OperationSpec, operations, resolveRef } from '../spec/load.ts';
import { prismArguments } from './mock.ts';
import { type RunningPrism, startPrism } from './prism.ts';

type JsonObject = { [key: string]: Json };

const DRAWS = 100;
const IN_FLIGHT = 8;

/** The first example of the operation's JSON request body, or null when it takes none. */
function requestBody(operation: OperationSpec): string | null {
  const raw = ((openapi['paths'] as JsonObject)[operation.path] as JsonObject)[operation.method.toLowerCase()] as JsonObject;
  if (raw['requestBody'] === undefined) return null;
  const media = (resolveRef(raw['requestBody']) as JsonObject)['content'] as JsonObject;
  const examples = (media['application/json'] as JsonObject)['examples'] as JsonObject;
  return JSON.stringify((Object.values(examples)[0] as JsonObject)['value']);
}

/** One generated answer of `operation` with `status`, as the conformance suite records an exchange. */
async function draw(baseUrl: string, operation: OperationSpec, status: string): Promise<ExchangeRecord> {
  const url = `${baseUrl}${operation.path.replace('{externalId}', 'SHOP-100245')}`;
  const body = requestBody(operation);
  const headers: Record<string, string> = { 'X-Api-Key': 'any', Prefer: `code=${status}`, ...(body === null ? {} : { 'Content-Type': 'application/json' }) };
  const started = Date.now();
  const response = await fetch(url, { method: operation.method, headers, ...(body === null ? {} : { body }) });
  const text = await response.text();
  return {
    id: 0,
    checkId: 'mock-dynamic',
    channel: 'api',
    operationId: operation.operationId,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    request: { method: operation.method, url, headers, body, bodyBytes: body === null ? 0 : Buffer.byteLength(body) },
    response: { status: response.status, headers: Object.fromEntries(response.headers), body: text === '' ? null : text, bodyBytes: Buffer.byteLength(text) },
    replay: '',
  };
}

/** Runs `tasks` with at most `limit` at a time. */
async function inPool<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

describe('waybill mock --dynamic', () => {
  let prism: RunningPrism;
  beforeAll(async () => {
    prism = await startPrism({ mode: 'mock', args: prismArguments({ dynamic: true, verbose: false }) });
  }, 90_000);
  afterAll(() => prism?.stop());

  const cases = [...operations.values()].flatMap((operation) => Object.keys(operation.responses).map((status) => [operation.operationId, status] as const));

  it.each(cases)(`%s %s: ${DRAWS} generated answers all conform to spec/openapi.yaml`, async (operationId, status) => {
    const operation = operations.get(operationId)!;
    const exchanges = await inPool(Array.from({ length: DRAWS }, () => () => draw(prism.url, operation, status)), IN_FLIGHT);
    expect(exchanges.map((exchange) => exchange.response!.status)).toEqual(Array(DRAWS).fill(Number(status)));
    const violations = exchanges
      .flatMap((exchange) => [...responseViolations(exchange), ...seedResponseViolations(exchange, {})])
      .map((finding) => `${finding.message}: ${finding.received}`);
    expect(violations.slice(0, 5), `${violations.length} violations in ${DRAWS} answers`).toEqual([]);
    expect(new Set(exchanges.map((exchange) => exchange.response!.body)).size, 'the answers differ').toBeGreaterThan(status === '204' ? 0 : 1);
  }, 60_000);
});
