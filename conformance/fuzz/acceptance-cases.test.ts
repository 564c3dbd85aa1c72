import { describe, expect, it } from 'vitest';
import { listOperations, openapi, orderStatuses, requirements, tripStatuses } from '../../spec/load.ts';
import { acceptanceCases, nearMisses } from './acceptance-cases.ts';
import { RULES } from './acceptance-rules.ts';

const cases = acceptanceCases(7);

describe('the acceptance cases', () => {
  it('name a testable requirement of the register that governs their operation', () => {
    for (const item of cases) {
      const entry = requirements.get(item.requirement);
      expect(entry, item.requirement).toBeDefined();
      expect(entry!.testable !== false, item.requirement).toBe(true);
      expect(entry!.operations.length === 0 || entry!.operations.includes(item.operationId as never), `${item.requirement} does not govern ${item.operationId}`).toBe(true);
    }
  });

  it('refuse at MUST only where a seed sentence says the input is refused, and every rule names a register id', () => {
    for (const [operationId, fields] of Object.entries(RULES)) {
      for (const [field, classes] of Object.entries(fields)) {
        for (const [cls, rule] of Object.entries(classes)) expect(requirements.get(rule!.requirement), `${operationId} ${field} ${cls}`).toBeDefined();
      }
    }
    const decided = cases.filter((item) => requirements.get(item.requirement)!.level === 'DECISION').map((item) => item.requirement);
    // What only waybill decides: limit syntax, since, trip statuses, edited cursors, parameters twice or unknown, unknown members, keys, request ids.
    expect([...new Set(decided)].sort()).toEqual(['D13', 'D16', 'D19', 'D23', 'D5', 'D8', 'D86', 'D9']);
  });

  it('cover every parameter, header and body member of the six operations, and the credentials of each', () => {
    for (const operation of listOperations(openapi)) {
      const fields = new Set(cases.filter((item) => item.operationId === operation.operationId).map((item) => item.field));
      for (const parameter of operation.parameters.filter((candidate) => candidate.in === 'query' || candidate.in === 'header')) expect(fields, `${operation.operationId} ${parameter.name}`).toContain(`${parameter.in} ${parameter.name}`);
      expect(fields, operation.operationId).toContain('credentials');
    }
    expect(new Set(cases.map((item) => item.operationId)).size).toBe(6);
    for (const member of ['paymentId', 'amount', 'currency']) expect(cases.some((item) => item.field === `body ${member}` && item.kind.startsWith('left out'))).toBe(true);
  });

  it('refuse, at DECISION level only (D86), a parameter the feeds do not define and their status in brackets, as axios sends an array', () => {
    const unknown = cases.filter((item) => item.field === 'query (unknown)');
    expect(unknown.map((item) => [item.operationId, item.shown, item.expect, item.requirement])).toEqual([
      ['orderFeed', 'waybillUnknown=1', 'refused', 'D86'],
      ['orderFeed', 'status[]=New', 'refused', 'D86'],
      ['tripFeed', 'waybillUnknown=1', 'refused', 'D86'],
      ['tripFeed', 'status[]=Confirmed', 'refused', 'D86'],
    ]);
    expect(cases.filter((item) => item.expect === 'accepted' && item.field.startsWith('query') && item.kind.includes('does not define'))).toEqual([]);
  });

  it('take every listed status, and refuse four near misses or more of each, read from the contract', () => {
    for (const [operationId, statuses] of [['orderFeed', orderStatuses], ['tripFeed', tripStatuses]] as const) {
      const status = cases.filter((item) => item.operationId === operationId && item.field === 'query status');
      expect(status.filter((item) => item.expect === 'accepted').map((item) => JSON.parse(item.shown) as string)).toEqual([...statuses]);
      for (const value of statuses) expect(status.filter((item) => item.kind.startsWith(`a near miss of ${value} `)).length, value).toBeGreaterThanOrEqual(4);
    }
  });

  it('are the same for the same seed, and draw other near misses for another', () => {
    const stable = (seed: number) => acceptanceCases(seed).filter((item) => item.field === 'query status').map((item) => item.shown);
    expect(stable(7)).toEqual(stable(7));
    expect(stable(7)).not.toEqual(stable(8));
  });

  it('under --fuzz, add near misses drawn by the seed, each one the contract refuses', () => {
    const drawn = acceptanceCases(7, 60).filter((item) => item.kind.startsWith('a drawn near miss of '));
    expect(drawn.length).toBeGreaterThanOrEqual(50);
    const again = acceptanceCases(7, 60).filter((item) => item.kind.startsWith('a drawn near miss of '));
    expect(again.map((item) => [item.field, item.shown])).toEqual(drawn.map((item) => [item.field, item.shown]));
    const listed = new Set(cases.filter((item) => item.expect === 'accepted').map((item) => `${item.field} ${item.shown}`));
    for (const item of drawn) {
      expect(item.expect).toBe('refused');
      expect(listed.has(`${item.field} ${item.shown}`), item.shown).toBe(false);
      const sent = item.change.in === 'query' ? item.change.values[0] : item.change.in === 'body' ? JSON.parse(item.change.json!) : undefined;
      expect(sent === undefined ? item.shown : JSON.stringify(sent)).toBe(item.shown);
    }
  });

  it('near misses are never the value itself, nor each other', () => {
    const draw = { character: () => 'x', index: () => 0 };
    for (const value of ['New', 'EUR', 'InProgress', 'a']) {
      const misses = nearMisses(value, draw).map((miss) => miss.value);
      expect(misses).not.toContain(value);
      expect(new Set(misses).size).toBe(misses.length);
    }
  });
});
