/** The matrix as a whole: every scenario has a naive variant that it catches, and the table names only what exists. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scenarios } from './scenarios/index.ts';
import { exampleClients, naiveClients, PAGE_SIZES, pageSizesOf, tooSoon } from '../../dev/testing/client-check/matrix.ts';

const ids = scenarios.map((scenario) => scenario.id);

describe('the client-check matrix', () => {
  it('catches every scenario with some variant, and each variant with the scenario of its rule', () => {
    const caught = new Set(Object.values(naiveClients).flatMap((client) => client.fails));
    expect(ids.filter((id) => !caught.has(id))).toEqual([]);
    for (const [name, client] of Object.entries(naiveClients)) {
      expect(client.fails, name).toContain(client.breaks);
      expect(client.finding, name).toBeInstanceOf(RegExp);
      expect(client.fix, name).toMatch(/\)$/);
      for (const id of [...client.fails, ...(client.leftOut?.ids ?? [])]) expect(ids, `${name}: ${id}`).toContain(id);
    }
  });

  it('names exactly the variants of example/naive.mjs', () => {
    const source = readFileSync(new URL('./example/naive.mjs', import.meta.url), 'utf8');
    const declared = [...source.matchAll(/^ {2}'([a-z0-9-]+)': \{/gm)].map((match) => match[1]);
    expect(declared.sort()).toEqual(Object.keys(naiveClients).sort());
  });

  it('runs the example clients, and every variant a sync scenario catches, at page sizes 1, 50 and 100', () => {
    for (const client of Object.values(exampleClients)) expect(pageSizesOf(client)).toEqual(PAGE_SIZES);
    for (const [name, client] of Object.entries(naiveClients)) {
      if (client.fails.some((id) => id.startsWith('client.sync.'))) expect(pageSizesOf(client), name).toEqual(PAGE_SIZES);
    }
  });

  it("accepts a pass by accident of the rate-limit scenario only from a log whose every request found its key's bucket holding one", () => {
    // One request left at the first, one more each 200 ms, the grader's 100 ms head start and 20 ms spared.
    const log = (...afterMs: number[]) => afterMs.map((ms, i) => ({ id: i + 1, atUtc: new Date(Date.parse('2026-11-29T12:00:00.000Z') + ms).toISOString() }));
    expect(tooSoon(log(0, 5))).toEqual(['#2 at 2026-11-29T12:00:00.005Z']);
    expect(tooSoon(log(0, 79))).toEqual(['#2 at 2026-11-29T12:00:00.079Z']);
    expect(tooSoon(log(0, 80, 280, 480))).toEqual([]);
    expect(tooSoon(log(0, 120, 240))).toEqual(['#3 at 2026-11-29T12:00:00.240Z']);
    expect(tooSoon(log(0, 1000, 1001, 1002, 1003, 1004, 1005))).toEqual(['#7 at 2026-11-29T12:00:01.005Z']);
    expect(tooSoon([])).toEqual([]);
  });
});
