import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stressedBody } from './stressed-bodies.ts';

/** How deep `text` nests arrays and objects (outside strings; the bodies hold none with brackets). */
function depthOf(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (code === 0x5b || code === 0x7b) deepest = Math.max(deepest, (depth += 1));
    else if (code === 0x5d || code === 0x7d) depth -= 1;
  }
  return deepest;
}

describe('stressedBody', () => {
  const bodies = fc.sample(stressedBody(['skills', 'amount'], ['lines']), { seed: 3, numRuns: 120 });

  it('makes JSON bodies of at most 1 MiB', () => {
    for (const body of bodies) {
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(1024 * 1024);
      expect(() => JSON.parse(body)).not.toThrow();
    }
  });

  it('nests past 64 levels, to 100,000, in a member and as a whole', () => {
    const depths = bodies.map(depthOf);
    // A wide body nests at most five levels (`{"rows":[{"lines":[{}]}]}`); a deep one at least 65.
    expect(Math.min(...depths.filter((depth) => depth > 5))).toBe(65);
    expect(Math.max(...depths)).toBeGreaterThanOrEqual(100_000);
    expect(bodies.some((body) => body.startsWith('{"skills":[[') || body.startsWith('{"amount":{"a":'))).toBe(true);
    expect(bodies.some((body) => body.startsWith('[['))).toBe(true);
  });

  it('widens a member, or a member of its first item, to 200,000 items', () => {
    const widths = bodies.map((body) => (JSON.parse(body) as unknown as Record<string, unknown>)).flatMap((value) => Object.values(value ?? {}));
    const lengths = widths.filter(Array.isArray).map((array) => array.length);
    expect(Math.max(...lengths)).toBe(200_000);
    const rows = bodies.filter((body) => /^\{"(skills|amount)":\[\{"lines":\[/.test(body));
    expect(rows.length).toBeGreaterThan(0);
    expect(Math.max(...rows.map((body) => ((JSON.parse(body) as Record<string, [{ lines: unknown[] }]>)[body.slice(2, body.indexOf('"', 2))]![0].lines.length)))).toBeGreaterThanOrEqual(40_000);
  });
});
