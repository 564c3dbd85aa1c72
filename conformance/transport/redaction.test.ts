import { describe, expect, it } from 'vitest';
import { createRedactor } from './redaction.ts';

const key = { value: 'wbk_AbCdEf123456_x-y_zZ09', name: 'full', envVar: 'WAYBILL_KEY_FULL' };
const shortToken = { value: 't', name: 'adminToken', envVar: 'WAYBILL_ADMIN_TOKEN' };
const redactor = createRedactor([key, shortToken]);

describe('redaction', () => {
  it('redacts a secret wherever it stands as a whole token: header, JSON, query, bearer', () => {
    expect(redactor.redact(`X-Api-Key: ${key.value}`)).toBe('X-Api-Key: <redacted:full>');
    expect(redactor.redact(`{"secret":"${key.value}"}`)).toBe('{"secret":"<redacted:full>"}');
    expect(redactor.redact(`Bearer t`)).toBe('Bearer <redacted:adminToken>');
    expect(redactor.redact(`{"token":"t"}`)).toBe('{"token":"<redacted:adminToken>"}');
    expect(redactor.redactUrl(`http://127.0.0.1:4321/keys?key=${key.value}&x=1`)).toBe('http://127.0.0.1:4321/keys?key=<redacted:full>&x=1');
  });

  it('leaves a short secret alone inside longer words, so URLs and prose stay readable', () => {
    expect(redactor.redact('http://status.test/trips')).toBe('http://status.test/trips');
    // The origin is kept whole; in the rest every standalone `t` is the secret as far as anyone can tell.
    expect(redactor.redactUrl('http://t:4000/t/trips?x=t')).toBe('http://t:4000/<redacted:adminToken>/trips?x=<redacted:adminToken>');
    expect(() => new URL(redactor.redactUrl('http://127.0.0.1:4321/api/v1/integration/orders'))).not.toThrow();
  });

  it('does the same on bytes', () => {
    const body = Buffer.from(`{"secret":"${key.value}","note":"status t"}`);
    expect(redactor.redactBytes(body).toString()).toBe('{"secret":"<redacted:full>","note":"status <redacted:adminToken>"}');
  });

  it('cuts text into literals and secrets for replay lines', () => {
    expect(redactor.segments(`curl -H 'Authorization: Bearer t' http://h/`)).toEqual([
      { literal: "curl -H 'Authorization: Bearer " },
      { secret: shortToken },
      { literal: "' http://h/" },
    ]);
  });
});
