import { describe, expect, it } from 'vitest';
import { makeCursorCodec } from './cursor.ts';

const codec = makeCursorCodec(Buffer.alloc(32, 1));
const position = { updatedAt: '2026-11-20T09:30:11.482Z', id: '6a2d91f4-08be-4c37-a5e2-9f13c7d4b851' };

describe('cursor codec (D5)', () => {
  it('round-trips a position', () => {
    expect(codec.decode('orders', 't1', codec.encode('orders', 't1', position))).toEqual(position);
  });

  it('refuses a cursor of another feed, tenant or signing key', () => {
    const cursor = codec.encode('orders', 't1', position);
    expect(codec.decode('trips', 't1', cursor)).toBeNull();
    expect(codec.decode('orders', 't2', cursor)).toBeNull();
    expect(makeCursorCodec(Buffer.alloc(32, 2)).decode('orders', 't1', cursor)).toBeNull();
  });

  it('refuses every single-character change of a cursor', () => {
    const cursor = codec.encode('orders', 't1', position);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';
    for (let i = 0; i < cursor.length; i += 1) {
      for (const c of ['A', 'g', '9', '_']) {
        if (cursor[i] === c || !alphabet.includes(c)) continue;
        const changed = cursor.slice(0, i) + c + cursor.slice(i + 1);
        expect(codec.decode('orders', 't1', changed), `${i}:${c}`).toBeNull();
      }
    }
  });

  it('refuses truncations and garbage without throwing', () => {
    const cursor = codec.encode('orders', 't1', position);
    for (let n = 0; n < cursor.length; n += 7) expect(codec.decode('orders', 't1', cursor.slice(0, n))).toBeNull();
    for (const junk of ['', '.', '..', 'a.b', '%%%', '\u0000.\u0000', 'x'.repeat(10_000)]) expect(codec.decode('orders', 't1', junk)).toBeNull();
  });
});
