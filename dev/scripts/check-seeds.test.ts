import { describe, expect, it } from 'vitest';
import { compareCatalog, compareQuotes, parseSeedCatalog, type CatalogCode } from './check-seeds.ts';

const sample = `# Catalog

The catalog states a total of 4 codes.

### Generic (api.*)

| Code | Status | Meaning |
|---|---|---|
| api.rate_limited | 429 | Rate limit exceeded; retry after the indicated delay. |
| idempotency.inFlight | 429 | A request with the same Idempotency-Key is still in flight (no meaning text listed). |

Some prose between tables | with a pipe | 123 |

### Couriers (drivers)

| Code | Status | Meaning |
|---|---|---|
| couriers.notfound | 404 | No driver with that id in the tenant. |
| couriers.tag.empty | 400 | (no meaning text listed) |
`;

const parsed: CatalogCode[] = [
  { code: 'api.rate_limited', status: 429, group: 'Generic', meaning: 'Rate limit exceeded; retry after the indicated delay.' },
  { code: 'idempotency.inFlight', status: 429, group: 'Generic', meaning: 'A request with the same Idempotency-Key is still in flight.' },
  { code: 'couriers.notfound', status: 404, group: 'Couriers', meaning: 'No driver with that id in the tenant.' },
  { code: 'couriers.tag.empty', status: 400, group: 'Couriers', meaning: '' },
];

describe('parseSeedCatalog', () => {
  it('reads every code row under its heading, skipping header, separator and prose', () => {
    expect(parseSeedCatalog(sample).codes).toEqual(parsed);
  });

  it('reads the total the seed states', () => {
    expect(parseSeedCatalog(sample).statedTotal).toBe(4);
    expect(parseSeedCatalog('### A\n| a.b | 400 | x |').statedTotal).toBeNull();
  });

  it('ignores table rows before the first heading', () => {
    expect(parseSeedCatalog('| a.b | 400 | x |\n### G\n| c.d | 404 | y |').codes.map((c) => c.code)).toEqual(['c.d']);
  });

  it('accepts CRLF line endings', () => {
    expect(parseSeedCatalog(sample.replaceAll('\n', '\r\n')).codes).toEqual(parsed);
  });
});

describe('compareCatalog', () => {
  const seed = parseSeedCatalog(sample);

  it('finds nothing when the entries equal the seed', () => {
    expect(compareCatalog(seed, parsed, 4)).toEqual([]);
  });

  it('reports missing, extra, status and group differences', () => {
    const entries = [
      { ...parsed[0]!, status: 400 },
      { ...parsed[1]!, group: 'Idempotency' },
      parsed[2]!,
      { ...parsed[3]!, code: 'couriers.tag.blank' },
    ];
    expect(compareCatalog(seed, entries, 4)).toEqual([
      'missing from errors.yaml (1): couriers.tag.empty',
      'extra in errors.yaml (1): couriers.tag.blank',
      'status mismatch: api.rate_limited seed 429, errors.yaml 400',
      'group mismatch: idempotency.inFlight seed "Generic", errors.yaml "Idempotency"',
    ]);
  });

  it('reports a wrong count, a wrong total and a seed that contradicts its own total', () => {
    expect(compareCatalog(seed, parsed.slice(0, 3), 3)).toEqual([
      'missing from errors.yaml (1): couriers.tag.empty',
      'count: errors.yaml has 3 codes, the seed lists 4',
      'total: errors.yaml says 3, the seed states 4',
    ]);
    expect(compareCatalog({ ...seed, statedTotal: 5 }, parsed, 5)).toEqual([
      'the seed lists 4 codes but states a total of 5',
    ]);
  });

  it('reports entries out of seed order', () => {
    const swapped = [parsed[1]!, parsed[0]!, parsed[2]!, parsed[3]!];
    expect(compareCatalog(seed, swapped, 4)).toEqual([
      'order: entry 1 is idempotency.inFlight, the seed has api.rate_limited',
    ]);
  });
});

describe('compareQuotes', () => {
  const seed = new Map([['01-api.md', '# API\n\n## Limits\n\nA page holds at most\n100 items.\n\n## Errors\n\nEvery failure is a problem.\n']]);
  const entry = { id: 'int.limit', document: '01-api.md', section: 'Limits', quote: 'A page holds at most 100 items.' };

  it('accepts a quote that stands word for word in its section, across a line break', () => {
    expect(compareQuotes(seed, [entry])).toEqual([]);
  });

  it('names a quote that is not in its section, changed by a word, or under a section the seed lacks', () => {
    expect(compareQuotes(seed, [{ ...entry, section: 'Errors' }])).toEqual(['int.limit: not found word for word in 01-api.md › Errors: "A page holds at most 100 items."']);
    expect(compareQuotes(seed, [{ ...entry, quote: 'A page holds at most 50 items.' }])).toHaveLength(1);
    expect(compareQuotes(seed, [{ ...entry, section: 'Paging' }])).toEqual(['int.limit: 01-api.md has no section "Paging"']);
  });
});
