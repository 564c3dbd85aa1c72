/**
 * The problems a call can be answered on demand (D95): each code its operation lists in
 * `x-error-codes`, answered as the sandbox answers it for real. Each is made by the code that
 * refuses a real request (the rate limit, the idempotency layer, the body reader, the feeds,
 * the writes), from what this call carries — its external id, cursor, Idempotency-Key and
 * key's rate limit — and a body's field error by the operation's own validation of a body
 * that breaks the rule of that code.
 */
import type { Request, Response } from 'express';
import { type CatalogCode, type Json, openapi, type OperationSpec, resolveRef } from '../../spec/load.ts';
import type { JsonObject } from '../../spec/documents.ts';
import { bodyIncomplete, payloadTooLarge, unsupportedMediaType } from '../http/body.ts';
import { principalOf } from '../http/context.ts';
import { errorsDetail } from '../http/field-errors.ts';
import { problem, type ProblemError } from '../http/problem.ts';
import { rateLimited } from '../http/rate-limit.ts';
import { UNREADABLE_REQUEST } from '../http/server.ts';
import { makeSchemaCheck, queryOf } from '../http/validate.ts';
import { inFlightProblem, keyRefused } from '../idempotency/middleware.ts';
import { cursorRefused } from '../integration/feeds.ts';
import { illegalMove, orderNotFound, WRITE_MOVES } from '../orders/writes.ts';

/** The status a forced `orders.status.illegal` names: one from which no write of the contract may move an order (D11, D12). */
const ILLEGAL_FROM = 'InProgress';

/** The member of a valid body a 400 code of the body is staged on, and the value that breaks its rule. */
const BROKEN_MEMBERS: Partial<Record<CatalogCode, readonly [member: string, value: unknown]>> = {
  'payments.amount.invalid': ['amount', 0],
  'payments.currency.invalid': ['currency', 'eur'],
};

type SchemaCheck = ReturnType<typeof makeSchemaCheck>;

/** The operation's body validation, made once per operation and only when a body's problem is first forced. */
const bodyChecks = new Map<string, SchemaCheck>();

/** The body of the operation's first request example in `spec/openapi.yaml`, or `{}`: a body its validation takes. */
function exampleBody(operation: OperationSpec): Record<string, unknown> {
  const paths = openapi['paths'] as JsonObject;
  const raw = ((paths[operation.path] as JsonObject)[operation.method.toLowerCase()] as JsonObject)['requestBody'];
  const body = raw === undefined ? {} : resolveRef(raw);
  const media = ((body['content'] as JsonObject | undefined)?.['application/json'] ?? {}) as { examples?: Record<string, Json> };
  const example = resolveRef<{ value?: Record<string, unknown> }>(Object.values(media.examples ?? {})[0] ?? {});
  return { ...(example.value ?? {}) };
}

/** The operation's body with the member that `code` judges broken: its first member of the wrong type for `api.malformed_request`. */
function brokenBody(operation: OperationSpec, code: CatalogCode, schema: Json): Record<string, unknown> {
  const body = exampleBody(operation);
  const properties = Object.keys(resolveRef<{ properties?: Record<string, unknown> }>(schema).properties ?? {});
  const [member, value] = BROKEN_MEMBERS[code] ?? [properties[0] ?? 'body', true];
  return { ...body, [member]: value };
}

/** The 400 `code` of an operation with a body: its own validation of a body that breaks that rule. */
function bodyProblem(operation: OperationSpec, code: CatalogCode): ProblemError {
  const schema = operation.requestBody!.content['application/json']!;
  let check = bodyChecks.get(operation.operationId);
  if (check === undefined) {
    check = makeSchemaCheck(schema);
    bodyChecks.set(operation.operationId, check);
  }
  const { errors, total } = check(brokenBody(operation, code, schema));
  const first = errors[0];
  // A contract whose schema no longer answers the code the operation lists must fail loudly, not answer another.
  if (first === undefined || first.code !== code) throw new Error(`${operation.operationId}: the staged body does not fail with ${code}`);
  return problem(code, errorsDetail(first, errors.length, total), errors);
}

/** The 400 `api.malformed_request` of the operation, on the input it reads: its body, its cursor, its Idempotency-Key, or none (the HTTP layer's, D60). */
function malformedRequest(operation: OperationSpec, req: Request): ProblemError {
  if (operation.requestBody !== null) return bodyProblem(operation, 'api.malformed_request');
  if (operation.parameters.some((parameter) => parameter.in === 'query' && parameter.name === 'cursor')) return cursorRefused(queryOf(req)['cursor'] ?? null);
  if (operation.parameters.some((parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key')) {
    const key = req.get('Idempotency-Key');
    return key === undefined ? keyRefused('shape', null) : keyRefused('reused', key);
  }
  return problem('api.malformed_request', UNREADABLE_REQUEST);
}

// requirement: D95
/**
 * The problem `code`, one of `operation`'s `x-error-codes`, as the sandbox answers it for real
 * to this call; `retryAfterSeconds` is the `Retry-After` of a 429.
 */
export function forcedProblem(operation: OperationSpec, code: CatalogCode, req: Request, res: Response, retryAfterSeconds: number | null): ProblemError {
  const retryAfter = retryAfterSeconds ?? 1;
  switch (code) {
    case 'api.malformed_request':
      return malformedRequest(operation, req);
    case 'api.rate_limited':
      return rateLimited(principalOf(res).rateLimit, retryAfter);
    case 'idempotency.inFlight':
      return inFlightProblem(retryAfter);
    case 'api.unsupported_media_type':
      return unsupportedMediaType('text/plain');
    case 'api.payload_too_large':
      return payloadTooLarge();
    case 'api.request_body_incomplete':
      return bodyIncomplete();
    case 'orders.notFound':
      return orderNotFound(String(req.params['externalId'] ?? ''));
    case 'orders.status.illegal':
      return illegalMove(ILLEGAL_FROM, WRITE_MOVES[operation.operationId] ?? 'changed');
    default:
      // A body's own codes (payments.*), then the ones whose catalog meaning is their detail (tenants.tenant.*, as D22 answers them).
      return BROKEN_MEMBERS[code] !== undefined && operation.requestBody !== null ? bodyProblem(operation, code) : problem(code);
  }
}
