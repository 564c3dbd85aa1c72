import { describe, expect, it } from 'vitest';
import { catalog } from '../../spec/load.ts';
import { catalogCoverage } from './coverage.ts';
import type { ExchangeRecord } from './types/exchange.ts';

let nextId = 1;
/** A recorded answer with a JSON body. */
function answered(status: number, body: unknown, contentType = status < 300 ? 'application/json' : 'application/problem+json', channel: ExchangeRecord['channel'] = 'api'): ExchangeRecord {
  const text = JSON.stringify(body);
  return {
    id: nextId++,
    checkId: 't.t',
    channel,
    operationId: null,
    startedAt: '2026-11-22T00:00:00.000Z',
    durationMs: 1,
    request: { method: 'GET', url: 'http://x/', headers: {}, body: null, bodyBytes: 0 },
    response: { status, headers: { 'content-type': contentType }, body: text, bodyBytes: text.length },
    replay: '',
  };
}

const profile = { keys: { full: 'k' } };
const stateOf = (codes: ReturnType<typeof catalogCoverage>, code: string) => codes.find((entry) => entry.code === code);

describe('catalogCoverage', () => {
  it('lists exactly the 218 codes of the catalog, each once', () => {
    const codes = catalogCoverage([], profile);
    expect(codes).toHaveLength(218);
    expect(new Set(codes.map((entry) => entry.code))).toEqual(new Set(catalog.keys()));
  });

  it('expects integration codes always and sandbox codes only with a sandbox; catalog codes are not reachable', () => {
    const without = catalogCoverage([], profile);
    const withSandbox = catalogCoverage([], { ...profile, sandbox: { url: 'http://x/sandbox/v1', token: 't' } });
    expect(stateOf(without, 'orders.notFound')?.state).toBe('expected-not-seen');
    expect(stateOf(without, 'apikeys.name_required')?.state).toBe('not-reachable');
    expect(stateOf(withSandbox, 'apikeys.name_required')?.state).toBe('expected-not-seen');
    expect(stateOf(withSandbox, 'api.day_window_conflict')?.state).toBe('not-reachable');
    const counts = (codes: ReturnType<typeof catalogCoverage>) => codes.filter((entry) => entry.state === 'expected-not-seen').length;
    expect(counts(without)).toBe([...catalog.values()].filter((entry) => entry.reach === 'integration').length);
    expect(counts(withSandbox)).toBe([...catalog.values()].filter((entry) => entry.reach !== 'catalog').length);
  });

  it('counts a code as exercised only with its status, problem+json and a valid body', () => {
    const codes = catalogCoverage(
      [
        answered(404, { type: 'orders.notFound', title: 'Order not found', status: 404 }),
        answered(409, { type: 'orders.status.illegal', title: 'Illegal', status: 404 }),
        answered(409, { type: 'tenants.tenant.suspended', title: 'Suspended', status: 409 }, 'application/json'),
        answered(400, { type: 'payments.amount.invalid', title: 'Validation failed', status: 400 }),
        answered(409, { type: 'apikeys.already_revoked', title: 'Revoked', status: 409, detail: null }, undefined, 'sandbox'),
      ],
      profile,
    );
    expect(stateOf(codes, 'orders.notFound')).toMatchObject({ state: 'exercised', seen: 1, mismatched: 0 });
    expect(stateOf(codes, 'orders.status.illegal')).toMatchObject({ state: 'expected-not-seen', seen: 0, mismatched: 1 });
    expect(stateOf(codes, 'tenants.tenant.suspended')).toMatchObject({ state: 'expected-not-seen', seen: 0, mismatched: 1 });
    // A 400 body needs `detail` (ValidationProblem).
    expect(stateOf(codes, 'payments.amount.invalid')).toMatchObject({ state: 'expected-not-seen', mismatched: 1 });
    expect(stateOf(codes, 'apikeys.already_revoked')).toMatchObject({ state: 'exercised', seen: 1 });
  });

  it('finds import.row.invalid reported per row inside a 200 body', () => {
    const codes = catalogCoverage([answered(200, { imported: 1, rows: [{ row: 2, errors: [{ code: 'import.row.invalid', field: 'Type' }] }] }, undefined, 'sandbox')], profile);
    expect(stateOf(codes, 'import.row.invalid')).toMatchObject({ state: 'exercised', seen: 1 });
  });
});
