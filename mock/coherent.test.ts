/** The mock's pages and orders made coherent (issue 39), on pages made by hand: what is put right, and what is left as it came. */
import { describe, expect, it } from 'vitest';
import { coherentOrder, coherentPage, pageBounds } from './coherent.ts';

/** An order of a generated page: ids, stamps and tags as json-schema-faker may draw them. */
const order = (id: string, shortId: string, createdAtUtc: string, updatedAtUtc: string, tags: string[] = []) => ({ id, shortId, createdAtUtc, updatedAtUtc, tags });

describe('coherentOrder', () => {
  it('swaps stamps drawn the wrong way round and lists each tag once', () => {
    expect(coherentOrder(order('a', 'ORD-7K2M9', '2026-10-10T00:00:00.000Z', '2026-02-19T00:00:00.000Z', ['t1', 't1', 't2', 't1']))).toEqual(
      order('a', 'ORD-7K2M9', '2026-02-19T00:00:00.000Z', '2026-10-10T00:00:00.000Z', ['t1', 't2']),
    );
  });

  it('leaves a coherent order as it is', () => {
    const coherent = order('a', 'ORD-7K2M9', '2026-02-19T00:00:00.000Z', '2026-10-10T00:00:00.000Z', ['t1']);
    expect(coherentOrder(coherent)).toEqual(coherent);
  });
});

describe('coherentPage', () => {
  const drawn = [
    order('c', 'ORD-7K2M9', '2026-01-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'),
    order('a', 'ORD-7K2M9', '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z'),
    order('b', 'ORD-4KX9P', '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z'),
  ];

  it('reads the default page size and the cap from the contract (D8)', () => {
    expect(pageBounds('orderFeed')).toEqual({ standard: 50, most: 100 });
    expect(pageBounds('tripFeed')).toEqual({ standard: 50, most: 100 });
  });

  it('keeps the feed order, makes a repeated short id anew, cuts to limit and gives a cursor for the rest', () => {
    const page = coherentPage({ items: drawn, nextCursor: null }, 'orderFeed', 2, true) as { items: { id: string; shortId: string }[]; nextCursor: string | null };
    expect(page.items.map((item) => item.id)).toEqual(['a', 'b']);
    expect(page.nextCursor).not.toBeNull();
    const whole = coherentPage({ items: drawn, nextCursor: null }, 'orderFeed', undefined, true) as { items: { id: string; shortId: string }[]; nextCursor: string | null };
    expect(whole.items.map((item) => item.id)).toEqual(['a', 'b', 'c']);
    expect(whole.items.map((item) => item.shortId)).toEqual(['ORD-7K2M9', 'ORD-4KX9P', expect.stringMatching(/^ORD-[2-9A-HJKMNP-Z]{5}$/)]);
    expect(whole.items[2]!.shortId).not.toBe('ORD-7K2M9');
    expect(whole.nextCursor).toBeNull();
  });

  it('gives generated trips ids of their own, the same for the same drawn id; example trips keep theirs', () => {
    const trips = [{ id: '0b7e5a52-3c1f-4b8e-9f6a-2d4c8e1a7b30', shortId: 'TRP-4KX9P', updatedAtUtc: '2026-01-01T00:00:00.000Z' }];
    const generated = coherentPage({ items: trips, nextCursor: null }, 'tripFeed', undefined, true) as { items: { id: string }[] };
    expect(generated.items[0]!.id).not.toBe(trips[0]!.id);
    expect(generated.items[0]!.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(coherentPage({ items: trips, nextCursor: null }, 'tripFeed', undefined, true)).toEqual(generated);
    expect(coherentPage({ items: trips, nextCursor: null }, 'tripFeed', undefined, false)).toEqual({ items: trips, nextCursor: null });
  });
});
