import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, tooDeep } from './json-depth.ts';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const nested = (depth: number, open = '[', close = ']') => `${open.repeat(depth)}${close.repeat(depth)}`;

describe('tooDeep (D58)', () => {
  it('takes nesting up to the limit and refuses one level more', () => {
    expect(tooDeep(bytes(nested(MAX_JSON_DEPTH)))).toBeNull();
    expect(tooDeep(bytes(nested(MAX_JSON_DEPTH + 1)))).toEqual({ member: null });
    expect(tooDeep(bytes(`{"a":${nested(MAX_JSON_DEPTH - 1)}}`))).toBeNull();
    expect(tooDeep(bytes(`{"a":${nested(MAX_JSON_DEPTH)}}`))).toEqual({ member: 'a' });
  });

  it('names the top-level member that holds the deep value, decoded, and no member of a deep array body', () => {
    const deepObject = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    expect(tooDeep(bytes(deepObject))).toEqual({ member: 'a' });
    expect(tooDeep(bytes(`{"ok":[1,{"x":2}],"sk\\"ills":${nested(10_000)}}`))).toEqual({ member: 'sk"ills' });
    expect(tooDeep(bytes(`{"caf\\u00e9":${nested(100)}}`))).toEqual({ member: 'café' });
    expect(tooDeep(bytes(`[{"a":${nested(100)}}]`))).toEqual({ member: null });
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const brackets = '['.repeat(1000);
    expect(tooDeep(bytes(`{"a":"${brackets}","b\\\\":"\\"${brackets}"}`))).toBeNull();
    expect(tooDeep(bytes(`["\\\\", ${nested(MAX_JSON_DEPTH)}]`))).toEqual({ member: null });
  });

  it('leaves text that is not JSON to the parser', () => {
    expect(tooDeep(bytes(`]${nested(MAX_JSON_DEPTH + 5)}`))).toBeNull();
    expect(tooDeep(bytes(`{"a":"${'['.repeat(100)}`))).toBeNull();
    expect(tooDeep(bytes(''))).toBeNull();
  });

  it('reads a megabyte of nesting without recursion', () => {
    expect(tooDeep(bytes(nested(512 * 1024)))).toEqual({ member: null });
  });
});
