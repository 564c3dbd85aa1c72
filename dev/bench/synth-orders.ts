/**
 * Synthetic orders for the benchmark database: realistic-looking rows made straight from
 * a seeded PRNG (faker is far too slow for a million rows). Orders are created in
 * insertion order over 60 days; about a third were never touched again, half were updated
 * at a random later instant, and the rest by batch jobs that stamp many orders with the
 * same `updatedAtUtc` (so the feed's tie-break on id matters at every scale).
 */
import type { OrderStatusName, OrderType } from '../../spec/load.ts';
import { miniStatusLabels } from '../../fixtures/word-lists.ts';
import { canArchive } from '../../server/orders/rules.ts';

/** One row of `orders`, in the column order of the benchmark's INSERT. */
export type OrderRow = [
  id: string,
  externalId: string | null,
  shortId: string,
  status: OrderStatusName,
  miniStatus: string | null,
  type: OrderType,
  customId: string | null,
  address: string,
  tags: string,
  createdAt: string,
  updatedAt: string,
  archivedAt: string | null,
];

const START = Date.parse('2026-09-01T00:00:00.000Z');
const SPAN_MS = 60 * 86_400_000;
/** Orders per batch stamp on average, whatever the size of the database. */
const BATCH_SIZE = 40;

// Every status of the contract's enum, or this does not compile: a status the contract adds needs a weight here.
const STATUS_WEIGHT: Record<OrderStatusName, number> = {
  New: 8, InPlanning: 6, Planned: 8, InProgress: 5, FullyDelivered: 38, PartiallyDelivered: 3,
  Returned: 3, Collected: 5, PartiallyCollected: 1, NotCollected: 2, Refused: 2, Cancelled: 7, Closed: 12,
};
const STATUS_WEIGHTS = Object.entries(STATUS_WEIGHT) as [OrderStatusName, number][];
const TYPE_WEIGHTS: [OrderType, number][] = [['Delivery', 80], ['Pickup', 8], ['Return', 8], ['Rebox', 4]];
const CITIES = [
  { city: 'Amsterdam', postcode: '10', lat: 52.37, lng: 4.9 },
  { city: 'Rotterdam', postcode: '30', lat: 51.92, lng: 4.48 },
  { city: 'Utrecht', postcode: '35', lat: 52.09, lng: 5.12 },
  { city: 'Eindhoven', postcode: '56', lat: 51.44, lng: 5.47 },
  { city: 'Groningen', postcode: '97', lat: 53.22, lng: 6.57 },
];
const STREETS = ['Keizersgracht', 'Hoofdstraat', 'Stationsweg', 'Kerkstraat', 'Dorpsstraat', 'Molenweg', 'Schoolstraat', 'Julianalaan'];
const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const HEX = '0123456789abcdef';

/** A seeded PRNG (mulberry32): the same data and the same cursors on every machine. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function weighted<T>(random: () => number, table: [T, number][]): T {
  const total = table.reduce((sum, [, weight]) => sum + weight, 0);
  let pick = random() * total;
  for (const [value, weight] of table) if ((pick -= weight) < 0) return value;
  return table[table.length - 1]![0];
}

/** A version-4 UUID from the PRNG. */
function uuid(random: () => number): string {
  let hex = '';
  for (let i = 0; i < 32; i++) hex += HEX[Math.floor(random() * 16)];
  const variant = HEX[8 + Math.floor(random() * 4)];
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** `ORD-` and five characters, distinct for the first 31^5 orders (a bijective scramble of `n`). */
function shortId(n: number): string {
  let x = (n * 7_368_787) % 28_629_151;
  let code = '';
  for (let i = 0; i < 5; i++) {
    code += CODE_ALPHABET[x % 31];
    x = Math.floor(x / 31);
  }
  return `ORD-${code}`;
}

/** Calls `emit` with `count` synthetic orders, in creation order; `tagIds` are the tenant's tags. */
export function synthesizeOrders(count: number, tagIds: readonly string[], emit: (row: OrderRow) => void): { newest: string } {
  const random = prng(20_261_120);
  const batchEvery = SPAN_MS / Math.max(1, (count * 0.2) / BATCH_SIZE);
  let shop = 100_000;
  let newest = 0;
  for (let i = 0; i < count; i++) {
    const created = START + Math.floor((i / count) * SPAN_MS + random() * 60_000);
    const touch = random();
    let updated = created;
    if (touch >= 0.3 && touch < 0.8) updated = created + Math.floor(-Math.log(1 - random()) * 36 * 3_600_000);
    else if (touch >= 0.8) updated = (Math.floor((created + random() * 4 * batchEvery) / batchEvery) + 1) * batchEvery;
    updated = Math.max(created, Math.min(Math.floor(updated), START + SPAN_MS));
    newest = Math.max(newest, updated);
    const status = weighted(random, STATUS_WEIGHTS);
    const labels = miniStatusLabels[status];
    const place = CITIES[Math.floor(random() * CITIES.length)]!;
    const tagCount = weighted(random, [[0, 55], [1, 30], [2, 11], [3, 4]]);
    const tags = Array.from({ length: tagCount }, () => tagIds[Math.floor(random() * tagIds.length)]!);
    const address = {
      line1: `${1 + Math.floor(random() * 240)} ${STREETS[Math.floor(random() * STREETS.length)]}`,
      city: place.city,
      postcode: `${place.postcode}${String(Math.floor(random() * 100)).padStart(2, '0')} ${CODE_ALPHABET[Math.floor(random() * 26) + 5]}${CODE_ALPHABET[Math.floor(random() * 26) + 5]}`,
      country: 'NL',
      lat: Math.round((place.lat + (random() - 0.5) * 0.2) * 1e5) / 1e5,
      lng: Math.round((place.lng + (random() - 0.5) * 0.3) * 1e5) / 1e5,
    };
    const updatedAt = new Date(updated).toISOString();
    emit([
      uuid(random),
      random() < 0.9 ? `SHOP-${(shop += 1 + Math.floor(random() * 4))}` : null,
      shortId(i),
      status,
      random() < 0.25 ? labels[Math.floor(random() * labels.length)]! : null,
      weighted(random, TYPE_WEIGHTS),
      random() < 1 / 3 ? `PO-${1_000_000 + Math.floor(random() * 9_000_000)}` : null,
      JSON.stringify(address),
      JSON.stringify([...new Set(tags)]),
      new Date(created).toISOString(),
      updatedAt,
      // About 5% of all orders are archived; 87% are in a status that allows it (D12).
      canArchive(status) && random() < 0.0575 ? updatedAt : null,
    ]);
  }
  return { newest: new Date(newest).toISOString() };
}
