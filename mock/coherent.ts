/**
 * The mock's orders and trips made coherent. json-schema-faker (`--dynamic`, `Prefer:
 * dynamic=true`) draws each member on its own, so it cannot relate two members or two items:
 * an order updated before it was created, one tag twice on an order, six short ids shared by a
 * page of fifty, the first trip of a seed with the first order's id, and a page of 100 for
 * `limit=3`. Every page and order the mock answers is put right here, its examples included
 * (which already are, and stay as written): each change deterministic, so `--seed` still repeats.
 */
import { createHash } from 'node:crypto';
import { type Json, operations, resolveRef } from '../spec/load.ts';

type Item = Record<string, unknown>;

/** Which feed a page is of: its operation and the prefix of its short ids. */
export type FeedKind = 'orderFeed' | 'tripFeed';

const SHORT_ID_PREFIX: Record<FeedKind, string> = { orderFeed: 'ORD-', tripFeed: 'TRP-' };
/** The letters of a short id as the reference makes them (no 0, 1, I, L, O). */
const SHORT_ID_LETTERS = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

/** The feed's page size when `limit` is absent (its default), and the most a page holds (D8), read from the contract. */
export function pageBounds(kind: FeedKind): { standard: number; most: number } {
  const operation = operations.get(kind)!;
  const limit = operation.parameters.find((parameter) => parameter.name === 'limit')!;
  const page = resolveRef<Record<string, Json>>(operation.responses['200']!.content['application/json']!);
  const items = (page['properties'] as Record<string, Record<string, Json>>)['items']!;
  return { standard: (limit.schema as { default: number }).default, most: items['maxItems'] as number };
}

/** sha256 of `text`, as bytes. */
const digest = (text: string) => createHash('sha256').update(text).digest();

/** A uuid (version 4 layout) made from `text`: the same text, the same uuid. */
function uuidFrom(text: string): string {
  const hex = digest(text).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${'89ab'[parseInt(hex[16]!, 16) % 4]}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A short id made from `seed`, as the reference spells them: `ORD-7K2M9`. */
function shortIdFrom(prefix: string, seed: string): string {
  const bytes = digest(seed);
  return `${prefix}${[...bytes.subarray(0, 5)].map((byte) => SHORT_ID_LETTERS[byte % SHORT_ID_LETTERS.length]).join('')}`;
}

/** An order whose `updatedAtUtc` is not before its `createdAtUtc` (the two swapped when drawn the other way round) and whose tags are each listed once. */
export function coherentOrder(order: Item): Item {
  const { createdAtUtc: created, updatedAtUtc: updated, tags } = order;
  const fixed = { ...order };
  if (typeof created === 'string' && typeof updated === 'string' && Date.parse(updated) < Date.parse(created)) Object.assign(fixed, { createdAtUtc: updated, updatedAtUtc: created });
  if (Array.isArray(tags)) fixed['tags'] = [...new Set(tags)];
  return fixed;
}

/**
 * A feed page as a feed answers one: at most `limit` items (the feed's default when absent,
 * capped as D8 caps it), in the feed's order (`updatedAtUtc`, then `id`: D7), each short id
 * and id once (a repeated short id made anew from the item's id), the ids of generated trips
 * apart from those of generated orders, and a `nextCursor` when items were left out.
 */
export function coherentPage(page: { items?: unknown; nextCursor?: unknown }, kind: FeedKind, limit: number | undefined, generated: boolean): Item {
  if (!Array.isArray(page.items)) return page;
  const { standard, most } = pageBounds(kind);
  const size = Math.min(limit ?? standard, most);
  const prefix = SHORT_ID_PREFIX[kind];
  const stamp = (item: Item) => String(item['updatedAtUtc'] ?? '');
  const items = (page.items as Item[]).map((drawn) => {
    const item = kind === 'orderFeed' ? coherentOrder(drawn) : { ...drawn };
    // A seed draws the same uuids for both feeds: a trip's id is made from its drawn one, apart from any order's.
    if (generated && kind === 'tripFeed' && typeof item['id'] === 'string') item['id'] = uuidFrom(`trip:${item['id']}`);
    return item;
  });
  items.sort((a, b) => stamp(a).localeCompare(stamp(b)) || String(a['id']).localeCompare(String(b['id'])));
  // In the feed's order, so that the first of a repeated short id keeps it.
  const ids = new Set<string>();
  const shortIds = new Set<string>();
  for (const item of items) {
    for (let round = 0; typeof item['id'] === 'string' && ids.has(item['id']); round += 1) item['id'] = uuidFrom(`${item['id']}:${round}`);
    if (typeof item['id'] === 'string') ids.add(item['id']);
    for (let round = 0; typeof item['shortId'] === 'string' && shortIds.has(item['shortId']); round += 1) item['shortId'] = shortIdFrom(prefix, `${item['id']}:${round}`);
    if (typeof item['shortId'] === 'string') shortIds.add(item['shortId']);
  }
  const kept = items.slice(0, size);
  const last = kept.at(-1);
  const nextCursor = kept.length < items.length && page.nextCursor === null && last !== undefined ? Buffer.from(`${stamp(last)}|${last['id']}`).toString('base64url') : page.nextCursor;
  return { ...page, items: kept, nextCursor };
}
