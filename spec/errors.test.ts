import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const catalog = parse(readFileSync(new URL('./errors.yaml', import.meta.url), 'utf8')) as {
  version: unknown;
  total: unknown;
  codes: Array<Record<string, unknown>>;
};
const codes = catalog.codes;
const statusOf = (code: string) => codes.find((c) => c.code === code)?.status;

const CODE_PATTERN = /^[a-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+$/;
const STATUSES = [200, 400, 403, 404, 408, 409, 413, 415, 429, 500, 503];
const REACHES = ['integration', 'sandbox', 'catalog'];

describe('spec/errors.yaml', () => {
  it('holds exactly 218 codes and says so', () => {
    expect(catalog.version).toBe(1);
    expect(catalog.total).toBe(218);
    expect(codes).toHaveLength(218);
  });

  it('lists each code once', () => {
    const seen = codes.map((c) => c.code);
    expect(seen.filter((code, i) => seen.indexOf(code) !== i)).toEqual([]);
  });

  it('gives every entry exactly code, status, title, group, meaning and reach with the right types', () => {
    for (const entry of codes) {
      expect(Object.keys(entry).sort(), String(entry.code)).toEqual(['code', 'group', 'meaning', 'reach', 'status', 'title']);
      expect(typeof entry.code, String(entry.code)).toBe('string');
      expect(Number.isInteger(entry.status), String(entry.code)).toBe(true);
      expect(typeof entry.title, String(entry.code)).toBe('string');
      expect(typeof entry.group, String(entry.code)).toBe('string');
      expect(entry.group, String(entry.code)).not.toBe('');
      expect(typeof entry.meaning, String(entry.code)).toBe('string');
    }
  });

  it('titles every code with a short summary of its own (RFC 9457 §3.1.3; D89): a capital first, no full stop, at most 48 characters, no two alike', () => {
    const titles = codes.map((c) => String(c.title));
    expect(codes.filter((c) => !/^[A-Z][^\n]*[^.\s]$/.test(String(c.title)) || String(c.title).length > 48).map((c) => `${c.code}: ${String(c.title)}`)).toEqual([]);
    expect(titles.filter((title, i) => titles.findIndex((other) => other.toLowerCase() === title.toLowerCase()) !== i)).toEqual([]);
  });

  it.each([
    ['api.malformed_request', 'Malformed request'],
    ['orders.notFound', 'Order not found'],
    ['orders.status.illegal', 'Illegal status transition'],
  ])('titles %s %j, as the contract has always shown it', (code, title) => {
    expect(codes.find((c) => c.code === code)?.title).toBe(title);
  });

  it('spells every code as dotted segments', () => {
    expect(codes.map((c) => c.code).filter((code) => !CODE_PATTERN.test(String(code)))).toEqual([]);
  });

  it('uses only the statuses the catalog uses', () => {
    expect(codes.filter((c) => !STATUSES.includes(c.status as number)).map((c) => c.code)).toEqual([]);
  });

  it('gives every code a reach of integration, sandbox or catalog', () => {
    expect(codes.filter((c) => !REACHES.includes(c.reach as string)).map((c) => c.code)).toEqual([]);
  });

  it('has import.row.invalid as its only 200, so 200 is never an error status', () => {
    expect(codes.filter((c) => c.status === 200).map((c) => c.code)).toEqual(['import.row.invalid']);
  });

  it.each([
    ['api.malformed_request', 400],
    ['api.unsupported_media_type', 415],
    ['api.payload_too_large', 413],
    ['api.request_body_incomplete', 408],
    ['api.rate_limited', 429],
    ['idempotency.inFlight', 429],
    ['orders.notFound', 404],
    ['orders.status.illegal', 409],
    ['tenants.tenant.suspended', 409],
    ['tenants.tenant.archived', 409],
  ])('has %s with status %i, as the decisions use it', (code, status) => {
    expect(statusOf(code)).toBe(status);
  });

  it('marks every code the decisions answer as reachable through the integration interface', () => {
    const decided = ['api.malformed_request', 'api.unsupported_media_type', 'api.payload_too_large',
      'api.request_body_incomplete', 'api.rate_limited', 'idempotency.inFlight', 'orders.notFound',
      'orders.status.illegal', 'tenants.tenant.suspended', 'tenants.tenant.archived'];
    expect(decided.filter((code) => codes.find((c) => c.code === code)?.reach !== 'integration')).toEqual([]);
  });

  it('keeps orders.rate_limited out of the integration interface (D25)', () => {
    expect(codes.find((c) => c.code === 'orders.rate_limited')).toMatchObject({ status: 429, reach: 'catalog' });
  });
});
