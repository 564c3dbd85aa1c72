/**
 * Broken variants that accept what the contract refuses, or refuse what it allows, one for each
 * class of breakage the generated acceptance checks guard (conformance/fuzz/acceptance-cases.ts).
 * No hand-written check sends these values, so each variant caught by exactly its acceptance
 * check shows that the next breakage of its class is caught without a check of its own:
 * - a near miss of an enum value read as the value (other case, spaces);
 * - a body member of the wrong JSON type read as if it were right;
 * - a value the contract allows, at an edge of its range, refused as invalid.
 */
import { orderStatuses } from '../../spec/load.ts';
import type { ProxiedRequest } from '../testing/conformance/proxy.ts';
import type { BrokenVariant } from './harness.ts';
import { is, problemAnswer, queryOf, withQuery } from './rewrites.ts';

/** The listed order status `value` names when case and surrounding spaces are ignored, if any. */
const looselyMatched = (value: string) => orderStatuses.find((status) => status.toLowerCase() === value.trim().toLowerCase());

/** The body of a request as JSON, or undefined. */
async function bodyJson(requestBody: () => Promise<Buffer>): Promise<Record<string, unknown> | undefined> {
  try {
    const body: unknown = JSON.parse((await requestBody()).toString('utf8'));
    return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** True for a payment or cancel. */
const isWrite = (request: ProxiedRequest) => is.payment(request) || is.cancel(request);

/** One variant per class of the acceptance checks. */
export const brokenAcceptance: Record<string, BrokenVariant> = {
  // Class: a near miss of an enum value accepted.
  'order status filters matched without regard to case or spaces': {
    breaks: ['int.orders-feed.status'],
    fails: ['acceptance.refused'],
    proxy: () => ({
      request: (request) => {
        if (!is.orderFeed(request) || !queryOf(request).has('status')) return request;
        return { ...request, ...withQuery(request, (query) => {
          const statuses = query.getAll('status').map((value) => looselyMatched(value) ?? value);
          query.delete('status');
          for (const status of statuses) query.append('status', status);
        }) };
      },
    }),
  },
  // Class: a wrongly typed body member accepted.
  'body members sent as one-item arrays read as their item': {
    breaks: ['cat.api.malformed-request', 'int.payment.amount'],
    // writes.payment.amount.type sends [12] as an amount, by hand; acceptance.refused sends every member so.
    fails: ['acceptance.refused', 'writes.payment.amount.type'],
    alsoFails: { 'http.body.depth': 'its deepest body nests one-item arrays, which this target unwraps a level of, so the 65-level body is read' },
    proxy: () => ({
      answer: async (answer, request, resend, requestBody) => {
        if (!isWrite(request) || answer.status !== 400) return answer;
        const body = await bodyJson(requestBody);
        if (body === undefined || !Object.values(body).some((value) => Array.isArray(value) && value.length === 1)) return answer;
        const unwrapped = Object.fromEntries(Object.entries(body).map(([name, value]) => [name, Array.isArray(value) && value.length === 1 ? value[0] : value]));
        return resend({ body: Buffer.from(JSON.stringify(unwrapped)) });
      },
    }),
  },
  // Class: a valid value at an edge refused.
  'an upper-case paymentId refused': {
    breaks: ['int.payment.paymentId'],
    fails: ['acceptance.accepted'],
    proxy: () => ({
      answer: async (answer, request, _resend, requestBody) => {
        const paymentId = is.payment(request) ? (await bodyJson(requestBody))?.['paymentId'] : undefined;
        return typeof paymentId === 'string' && /[A-F]/.test(paymentId) && answer.status === 200 ? problemAnswer(answer, 400, 'api.malformed_request', 'paymentId must be a lower-case uuid') : answer;
      },
    }),
  },
};

