/**
 * Bodies at the edge of what a server must bear, all within 1 MiB: arrays or objects nested 65
 * to 100,000 levels deep, in a member or as the whole body (D58), and arrays of up to 200,000
 * bad items, in a member or in a member of its first item, as an import's `rows[0].lines` (D59).
 * A server that walks a body recursively, or lists every error of a long array, meets them here.
 */
import fc from 'fast-check';

/** How deep the nested bodies go: one past waybill's limit, then far past any stack. */
const DEPTHS = [65, 1_000, 10_000, 100_000];
/** How many items the wide arrays hold: 200,000 of the longest item is just under 1 MiB. */
const WIDTHS = [1_000, 40_000, 200_000];
/** The items of a wide array: wrong for any schema that types them. */
const ITEMS = ['1', '{}', 'null', '"x"', '[]'];

/** JSON text of `depth` nested arrays, or objects, around 1. */
function nested(depth: number, shape: 'array' | 'object'): string {
  return shape === 'array' ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/**
 * A deep or wide body for an operation whose body has the members `members`; `rowMembers` name
 * the members an item of one of them may have (every body member of the contract).
 */
export function stressedBody(members: readonly string[], rowMembers: readonly string[]): fc.Arbitrary<string> {
  const member = fc.constantFrom(...(members.length > 0 ? members : ['a'])).map((name) => JSON.stringify(name));
  const deep = fc.tuple(fc.constantFrom(...DEPTHS), fc.constantFrom('array' as const, 'object' as const)).map(([depth, shape]) => nested(depth, shape));
  const wide = fc.tuple(fc.constantFrom(...WIDTHS), fc.constantFrom(...ITEMS)).map(([width, item]) => `[${new Array<string>(width).fill(item).join(',')}]`);
  const rowMember = fc.constantFrom(...(rowMembers.length > 0 ? rowMembers : ['a'])).map((name) => JSON.stringify(name));
  return fc.oneof(
    fc.tuple(member, deep).map(([name, value]) => `{${name}:${value}}`),
    deep,
    fc.tuple(member, wide).map(([name, value]) => `{${name}:${value}}`),
    fc.tuple(member, rowMember, wide).map(([name, inner, value]) => `{${name}:[{${inner}:${value}}]}`),
  );
}
