/**
 * Seeded data tells one story (issue 39): in the demo tenant, in a `--seed` dataset's tenant and
 * in a tenant loaded from a `waybill fixtures` file, every order's history leads by legal moves
 * (`nextStatuses`) from New to the order's status, in time order and never after its last change,
 * and every stop of a trip has the outcome its order's status says (D40–D43).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset, FixtureOrder } from '../../fixtures/dataset.ts';
import { generateDataset } from '../../fixtures/generate.ts';
import { main as fixturesMain } from '../../fixtures/cli.ts';
import { memoryStore, tinyDataset } from '../../dev/testing/sandbox.ts';
import { DEMO_SEED, seedDemo } from '../start/demo.ts';
import { loadStartingDataset, startingDataset } from '../start/starting-dataset.ts';
import { makeDatasetImport, scopedId } from '../store/dataset.ts';
import type { Store } from '../store/index.ts';
import { endStatus, failedOutcomes, type RecordedLine, type StopLineSpec } from '../trips/outcomes.ts';
import { nextStatuses } from './rules.ts';
import type { OrderDetail } from './detail.ts';
import type { HistoryEntry } from './history.ts';

/** A tenant holding a dataset: the store, the tenant, and the dataset it was loaded from. */
interface Seeded {
  store: Store;
  tenantId: string;
  dataset: Dataset;
}

/** A stop's outcome as history entries and stops record it. */
interface Outcome {
  status: string;
  reasonCode: string | null;
  lines: RecordedLine[];
}

const work = mkdtempSync(join(tmpdir(), 'waybill-seeded-stories-'));
const seeded = new Map<string, Seeded>();

beforeAll(async () => {
  const demoStore = await memoryStore();
  const demo = await seedDemo(demoStore);
  seeded.set('the demo tenant', { store: demoStore, tenantId: demo.tenantId, dataset: generateDataset({ seed: DEMO_SEED, orders: 300, trips: 80 }) });

  const fromSeed = startingDataset({ seed: 3 })!;
  const seedStore = await memoryStore();
  await loadStartingDataset(seedStore, fromSeed, ':memory:');
  seeded.set('a --seed dataset', { store: seedStore, tenantId: fromSeed.tenantId, dataset: fromSeed.dataset });

  const file = join(work, 'fixtures.json');
  expect(await fixturesMain(['--seed', '11', '--orders', '150', '--trips', '60', '--coverage', '--out', file])).toBe(0);
  const fromFile = startingDataset({ fixtures: file })!;
  const fileStore = await memoryStore();
  await loadStartingDataset(fileStore, fromFile, ':memory:');
  seeded.set('a waybill fixtures file', { store: fileStore, tenantId: fromFile.tenantId, dataset: fromFile.dataset });
}, 60_000);
afterAll(async () => {
  for (const { store } of seeded.values()) await store.close();
  rmSync(work, { recursive: true, force: true });
});

/** The whole history of the order, oldest first. */
async function historyOf(store: Store, orderId: string): Promise<HistoryEntry[]> {
  const entries: HistoryEntry[] = [];
  for (let after = 0; ; ) {
    const page = await store.history.page(orderId, after, 100);
    entries.push(...page.items);
    if (page.lastSeq === null) return entries;
    after = page.lastSeq;
  }
}

const specsOf = (order: OrderDetail): StopLineSpec[] => order.lines.map((line) => ({ line: line.line, quantity: line.quantity, role: line.role }));

/** Whether a stop's outcome gives an order of `order`'s type and lines the status `status`: what a Completed stop's lines give, or a Failed stop (every line back) for Refused too. */
function fits(order: OrderDetail, outcome: Outcome, status: string): boolean {
  const given = endStatus(order.type, specsOf(order), outcome.lines);
  if (outcome.status === 'Completed') return given === status;
  const allBack = JSON.stringify(outcome.lines) === JSON.stringify(failedOutcomes(order.type, specsOf(order), outcome.reasonCode ?? ''));
  return outcome.status === 'Failed' && allBack && (status === 'Refused' || status === given);
}

/** What is wrong with the order's history, as sentences; empty when it tells the order's story. */
function historyProblems(order: OrderDetail, history: HistoryEntry[], payments: number): string[] {
  const problems: string[] = [];
  const first = history[0];
  if (first?.kind !== 'created' || first.atUtc !== order.createdAtUtc || (first.data as { status?: string }).status !== 'New') problems.push('does not start with its creation in New');
  let status = 'New';
  let before = order.createdAtUtc;
  let pending: Outcome | undefined;
  for (const entry of history) {
    if (entry.atUtc < before) problems.push(`${entry.kind} at ${entry.atUtc} comes before ${before}`);
    if (entry.atUtc > order.updatedAtUtc) problems.push(`${entry.kind} at ${entry.atUtc} comes after the last change ${order.updatedAtUtc}`);
    before = entry.atUtc;
    const data = entry.data as Record<string, unknown>;
    if (entry.kind === 'outcome') {
      pending = data as unknown as Outcome;
      if (data['tripId'] !== order.tripId) problems.push(`an outcome on trip ${String(data['tripId'])}, not its trip ${order.tripId}`);
    }
    if (entry.kind !== 'status' && entry.kind !== 'cancel') continue;
    const to = String(data['to']);
    if (data['from'] !== status || !nextStatuses(order.type, status).includes(to as never)) problems.push(`moves ${String(data['from'])} → ${to} while ${status}`);
    if (status === 'InProgress' && to !== 'InPlanning' && order.tripId !== null && (pending === undefined || !fits(order, pending, to))) problems.push(`ends ${to} without a stop outcome that gives it`);
    pending = undefined;
    status = to;
  }
  if (status !== order.status) problems.push(`leads to ${status}, not ${order.status}`);
  const paid = history.filter((entry) => entry.kind === 'payment').length;
  if (paid !== payments) problems.push(`records ${paid} payments of ${payments}`);
  return problems;
}

describe.each(['the demo tenant', 'a --seed dataset', 'a waybill fixtures file'])('%s', (name) => {
  it("gives every order a history of legal moves from New to its status, in time order, none after its last change, each end by its stop's outcome", async () => {
    const { store, tenantId, dataset } = seeded.get(name)!;
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const fixture of dataset.orders) {
      const order = (await store.orderDetail(tenantId, scopedId(tenantId, fixture.id)))!;
      seen.add(order.status);
      for (const problem of historyProblems(order, await historyOf(store, order.id), fixture.payments.length)) problems.push(`${order.status} ${order.type} ${order.shortId}: ${problem}`);
    }
    expect(problems).toEqual([]);
    // Every status the dataset shows was checked (the fixtures file was made with --coverage).
    expect(seen.size).toBeGreaterThanOrEqual(name === 'a waybill fixtures file' ? 13 : 10);
  });

  it("gives every stop of a trip the outcome its order's status says: all of a Completed trip's, none of a Confirmed trip's", async () => {
    const { store, tenantId, dataset } = seeded.get(name)!;
    const problems: string[] = [];
    let completed = 0;
    for (const fixture of dataset.trips) {
      const trip = (await store.tripLife.detail(tenantId, scopedId(tenantId, fixture.id)))!;
      expect(trip.stops.map((stop) => stop.orderId)).toEqual(fixture.orderIds.map((id) => scopedId(tenantId, id)));
      if (trip.status === 'Completed') completed++;
      for (const stop of trip.stops) {
        const order = (await store.orderDetail(tenantId, stop.orderId))!;
        const where = `${trip.status} trip ${trip.shortId} stop ${stop.index} (${order.status} ${order.type})`;
        const history = await historyOf(store, order.id);
        if (stop.status === 'Open') {
          if (trip.status === 'Completed' || trip.status === 'Cancelled') problems.push(`${where}: open`);
          if (order.status !== (trip.status === 'Confirmed' ? 'Planned' : 'InProgress')) problems.push(`${where}: open while the order is ${order.status}`);
          if (stop.lines.some((line) => line.outcome !== null)) problems.push(`${where}: open with outcomes`);
          continue;
        }
        if (stop.lines.some((line) => line.outcome === null)) problems.push(`${where}: finished without every line's outcome`);
        const outcome: Outcome = { status: stop.status, reasonCode: stop.reasonCode, lines: stop.lines.map((line) => ({ line: line.line, ...line.outcome! }) as RecordedLine) };
        // A Closed order ended by its stop, then closed: the stop gave the status before Closed.
        const ended = order.status === 'Closed' ? String(history.findLast((entry) => (entry.data as { to?: string }).to === 'Closed')?.data['from']) : order.status;
        if (!fits(order, outcome, ended)) problems.push(`${where}: outcome ${JSON.stringify(outcome)} does not give ${ended}`);
        const recorded = history.find((entry) => entry.kind === 'outcome');
        if (recorded?.atUtc !== stop.finishedAtUtc || recorded.data['stop'] !== stop.index) problems.push(`${where}: finished ${stop.finishedAtUtc}, its history says ${recorded?.atUtc}`);
        if (stop.finishedAtUtc! < trip.plannedAtUtc || stop.finishedAtUtc! > trip.updatedAtUtc) problems.push(`${where}: finished ${stop.finishedAtUtc} outside the trip's ${trip.plannedAtUtc} … ${trip.updatedAtUtc}`);
      }
    }
    expect(problems).toEqual([]);
    expect(completed).toBeGreaterThan(0);
  });
});

describe('a hand-made dataset whose orders sit on no trip (the tests\' tinyDataset)', () => {
  it('still gets histories of legal moves to each status, in time order', async () => {
    const store = await memoryStore();
    try {
      const tenant = await store.tenants.create({ name: 'Tiny', country: 'NL' });
      const dataset = tinyDataset({ orders: 18, trips: 4 });
      await makeDatasetImport(store)(tenant.id, dataset);
      const problems: string[] = [];
      for (const fixture of dataset.orders as FixtureOrder[]) {
        const order = (await store.orderDetail(tenant.id, scopedId(tenant.id, fixture.id)))!;
        for (const problem of historyProblems(order, await historyOf(store, order.id), fixture.payments.length)) problems.push(`${order.status} ${order.shortId}: ${problem}`);
      }
      expect(problems).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
