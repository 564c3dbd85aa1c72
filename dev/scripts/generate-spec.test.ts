import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { handPart, MARKER, problemTypes, renderSpec } from './generate-spec.ts';

const specText = (name: string) => readFileSync(new URL(`../../spec/${name}`, import.meta.url), 'utf8');

describe('the generated part of spec/openapi.yaml and spec/sandbox.yaml', () => {
  it('is current (run `npm run gen:spec` if this fails)', () => {
    for (const [name, expected] of Object.entries(renderSpec())) {
      expect(specText(name) === expected, `spec/${name} is stale: run npm run gen:spec`).toBe(true);
    }
  });

  it('leaves sandbox.yaml with no reference outside itself, so that a generator reads it alone', () => {
    const refs = [...specText('sandbox.yaml').matchAll(/\$ref: '([^']*)'/g)].map((match) => match[1]!);
    expect(refs.length).toBeGreaterThan(100);
    expect(refs.filter((ref) => !ref.startsWith('#/'))).toEqual([]);
  });

  it('keeps the hand-written part above the marker', () => {
    for (const name of ['openapi.yaml', 'sandbox.yaml']) {
      const text = specText(name);
      expect(text.split(`\n${MARKER}\n`), name).toHaveLength(2);
      expect(() => parseYaml(handPart(text)), name).not.toThrow();
    }
  });

  it('gives each answer the codes of x-error-codes with its status, and those of the HTTP layer', () => {
    const payment = { 'x-error-codes': ['api.malformed_request', 'api.unsupported_media_type', 'payments.amount.invalid', 'orders.notFound', 'api.rate_limited', 'idempotency.inFlight'] };
    expect(problemTypes('/api/v1/integration/orders/externalid/{externalId}/payment', payment, 400)).toEqual(['api.malformed_request', 'payments.amount.invalid']);
    expect(problemTypes('/api/v1/integration/orders/externalid/{externalId}/payment', payment, 415)).toEqual(['api.malformed_request', 'api.unsupported_media_type']);
    expect(problemTypes('/api/v1/integration/orders/externalid/{externalId}/payment', payment, 429)).toEqual(['api.rate_limited', 'idempotency.inFlight']);
    expect(problemTypes('/api/v1/integration/orders/externalid/{externalId}/payment', payment, 404)).toEqual(['orders.notFound']);
    // The HTTP layer: any request may be unreadable (D60); no catalog code for 401, 403, 417, 500, 503 (D3).
    expect(problemTypes('/reset', { 'x-error-codes': [] }, 400)).toEqual(['api.malformed_request']);
    for (const status of [401, 403, 417, 500, 503]) expect(problemTypes('/reset', { 'x-error-codes': [] }, status)).toEqual(['about:blank']);
    // A path under a tenant answers an unknown tenant with about:blank (D30).
    expect(problemTypes('/tenants/{tenantId}/orders/{orderId}', { 'x-error-codes': ['orders.notFound'] }, 404)).toEqual(['orders.notFound', 'about:blank']);
  });
});
