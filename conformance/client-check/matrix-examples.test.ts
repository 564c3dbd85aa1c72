/**
 * The matrix, its correct clients: the example client in JavaScript and in Python passes every
 * scenario at page sizes 1, 50 and 100 (the sync scenarios at 1 and 50, every one at 100), graded
 * from the request log: "any language" shown, not claimed.
 */
import { describe, expect, it } from 'vitest';
import { scenarios } from './scenarios/index.ts';
import { cellsOf, exampleClients, expectCell } from '../../dev/testing/client-check/matrix.ts';

describe('the example clients', () => {
  it.each(cellsOf(exampleClients))('%s at page size %i passes every scenario it runs', async (_name, pageSize, client) => {
    const { report } = await expectCell(client, pageSize);
    if (pageSize !== 100) return;
    expect(report.results).toHaveLength(scenarios.length);
    expect(report.suite.name).toBe('waybill-client-check');
    expect(report.profile).toEqual({ keys: [], pools: {}, feeds: {}, sandbox: true, choices: [] });
    // Each scenario made its tenant and read the log through the control plane, recorded and redacted.
    expect(report.exchangeCount).toBeGreaterThan(scenarios.length * 3);
    expect(JSON.stringify(report)).not.toMatch(/wbk_[A-Za-z0-9]{6}|wba_[A-Za-z0-9]{6}/);
  }, 300_000);
});
