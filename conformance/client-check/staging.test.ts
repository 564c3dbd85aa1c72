/**
 * A scenario proves it staged what it claims (D57): with the staging left out or broken, each
 * guard ends the scenario in error, `not staged: …`, and the run is INCOMPLETE (exit 2) naming
 * it (D55), never a pass or a fail. Each row weakens one real scenario.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verdictLine } from '../reporters/console.ts';
import { runSuite } from '../engine/runner.ts';
import type { RunReport } from '../engine/types/report.ts';
import { type OwnSandbox, startOwnSandbox } from './own-sandbox.ts';
import { clientCheckContract } from './run.ts';
import { type ClientScenario, scenarioCheck } from './scenario.ts';
import { scenarios } from './scenarios/index.ts';
import { EXAMPLE_CLIENT } from '../../dev/testing/client-check/check-client.ts';

const scenario = (id: string) => scenarios.find((candidate) => candidate.id === id) as ClientScenario;

/** Each real scenario with its staging weakened, and what its guard says. */
const weakened: [string, ClientScenario, RegExp][] = [
  [
    'unknown-status with no simulation: no order in an unlisted status',
    { ...scenario('client.sync.unknown-status'), setup: async (session) => (await session.control.importOrders(session.tenantId, 'CC-PLAIN', 150), {}) },
    /^not staged: no order of the feed is in a status the contract does not list$/,
  ],
  [
    'unknown-status with nothing after the held order: no page left to read',
    {
      ...scenario('client.sync.unknown-status'),
      async setup(session) {
        await session.control.setClock(session.tenantId, { mode: 'frozen', atUtc: new Date(Date.now() + 60_000).toISOString() });
        await session.control.setSimulation(session.tenantId, { changesPerMinute: 30, seed: 7, unknownStatuses: true });
        await session.control.advanceClock(session.tenantId, 'PT30M');
        return {};
      },
    },
    /^not staged: \d+ orders follow the first unknown status \(OnHold\)/,
  ],
  ['answer-lost without its fault rule', { ...scenario('client.pay.answer-lost'), setup: (session) => scenario('client.no-retry.400').setup(session).then((inputs) => ({ ...inputs, currency: 'EUR' })) }, /^not staged: 0 fault rules like/],
  [
    'answer-lost whose fault never strikes (the guard of the run)',
    { ...scenario('client.pay.answer-lost'), setup: (session) => scenario('client.no-retry.400').setup(session).then((inputs) => ({ ...inputs, currency: 'EUR' })), staged: async () => {} },
    /^not staged: the reset fault did not strike the client's first attachPayment/,
  ],
  ['no-retry.401 with the key left live', { ...scenario('client.no-retry.401'), setup: scenario('client.no-retry.403').setup }, /^not staged: the client's key is not revoked$/],
  ['rate-limit without the drain', { ...scenario('client.sync.rate-limit'), setup: async (session) => (await session.control.importOrders(session.tenantId, 'CC-RL', 101), {}) }, /^not staged: the client's key holds undefined requests after the drain, not 1$/],
  ['follows-cursor with no change made while the client walks', (({ during: _during, ...rest }) => rest)(scenario('client.sync.follows-cursor')), /^not staged: the walk met no change made while it went on \(the grader made none\)$/],
  [
    'tolerant-reader with no simulation: no order with a member the contract does not list',
    { ...scenario('client.sync.tolerant-reader'), setup: async (session) => (await session.control.importOrders(session.tenantId, 'CC-PLAIN', 150), {}) },
    /^not staged: no order of the feed \/api\/v1\/integration\/orders carries a member the contract does not list$/,
  ],
  [
    'tolerant-reader with unknown members but no held trip',
    {
      ...scenario('client.sync.tolerant-reader'),
      async setup(session) {
        await session.control.setClock(session.tenantId, { mode: 'frozen', atUtc: new Date(Date.now() + 60_000).toISOString() });
        await session.control.setSimulation(session.tenantId, { changesPerMinute: 30, seed: 11, unknownMembers: true });
        await session.control.advanceClock(session.tenantId, 'PT20M');
        await session.control.importOrders(session.tenantId, 'CC-LATE', 110);
        return {};
      },
    },
    /^not staged: no trip of the feed \/api\/v1\/integration\/trips carries a status the contract does not list$/,
  ],
  ...(['orders', 'trips'] as const).map((feed): [string, ClientScenario, RegExp] => [
    `tolerant-reader with under a page of ${feed} after the first unknown one`,
    {
      ...scenario('client.sync.tolerant-reader'),
      async setup(session) {
        await session.control.setClock(session.tenantId, { mode: 'frozen', atUtc: new Date(Date.now() + 60_000).toISOString() });
        await session.control.setSimulation(session.tenantId, { changesPerMinute: 30, seed: 11, unknownMembers: true, unknownTripStatuses: true });
        // Three minutes make a few dozen orders; twenty make hundreds, and a held trip with a few trips after it.
        await session.control.advanceClock(session.tenantId, feed === 'orders' ? 'PT3M' : 'PT20M');
        return {};
      },
    },
    feed === 'orders'
      ? /^not staged: \d+ orders follow the first with deliveryWindow, a member the contract does not list yet \([0-9a-f-]+\): a client reading 100 a page could meet it on its last page$/
      : /^not staged: \d+ trips follow the first with status OnHold, a trip status the contract does not list \([0-9a-f-]+\): a client reading 100 a page could meet it on its last page$/,
  ]),
];

let sandbox: OwnSandbox;
let report: RunReport;

beforeAll(async () => {
  sandbox = await startOwnSandbox();
  const client = { command: process.execPath, args: [EXAMPLE_CLIENT], timeoutMs: 20_000 };
  // Ids made unique: the same scenario appears weakened twice.
  const checks = weakened.map(([name, weak]) => scenarioCheck({ ...weak, id: `${weak.id}.${name.replace(/[^a-z0-9]+/g, '-')}` }, client));
  report = await runSuite({ suite: 'waybill-client-check', checks, profile: { keys: { full: '' }, sandbox: { url: `${sandbox.url}/sandbox/v1`, token: sandbox.adminToken } }, target: sandbox.url, contract: clientCheckContract, concurrency: 4, timeoutMs: 30_000 });
}, 240_000);
afterAll(() => sandbox?.close());

describe('a scenario whose staging did not happen', () => {
  it.each(weakened.map(([name, , message], index) => [name, index, message] as const))('%s ends in error, not staged', (_name, index, message) => {
    const result = report.results[index]!;
    expect(result.outcome, JSON.stringify(result.findings.map((finding) => finding.message))).toBe('error');
    expect(result.error?.message).toMatch(message);
  });

  it('makes the run INCOMPLETE, exit 2, naming each scenario and why, in the verdict line', () => {
    expect(report.exitCode).toBe(2);
    expect(report.verdict.verdict).toBe('INCOMPLETE');
    expect(report.verdict.reasons).toHaveLength(weakened.length);
    const line = verdictLine(report, false);
    expect(line).toMatch(new RegExp(`^INCOMPLETE — ${weakened.length} scenarios not graded: client\\.sync\\.unknown-status\\.[a-z0-9-]+ ended in error: not staged: `));
    expect(line).not.toContain('PASS');
  });
});
