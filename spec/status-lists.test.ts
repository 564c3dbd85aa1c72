/**
 * The copies of the contract's lists that cannot read spec/openapi.yaml (the example clients
 * import nothing of waybill; the console's list of writes, which the contract marks by method) are
 * held to it here: a value added, renamed or dropped in the contract fails this test until each
 * copy follows. The lists read from the contract (spec/load.ts), the generated `…Values` arrays
 * (spec/*-types.ts, which the console imports) and the rule subsets typed by the contract need no test.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES as consoleOrderStatuses, TRIP_STATUSES as consoleTripStatuses, WRITE_OPERATIONS as consoleWrites } from '../console/src/types.ts';
import { operations, orderStatuses, tripStatuses } from './load.ts';

/** What the seeds' end rules make final (01-integration-api.md › Order statuses, rules 1–3), plus Cancelled (D11), Refused and Closed (D41, D12). */
const FINAL = ['FullyDelivered', 'PartiallyDelivered', 'Returned', 'Collected', 'PartiallyCollected', 'NotCollected', 'Cancelled', 'Refused', 'Closed'];

/** An example client's two lists. */
interface ExampleLists {
  known: string[];
  final: string[];
}

/** The lists of example/client.mjs, imported (its main block runs only as a program). */
async function javascriptLists(): Promise<ExampleLists> {
  const example = (await import('../conformance/client-check/example/client.mjs' as string)) as { KNOWN_ORDER_STATUSES: Set<string>; FINAL_ORDER_STATUSES: Set<string> };
  return { known: [...example.KNOWN_ORDER_STATUSES], final: [...example.FINAL_ORDER_STATUSES] };
}

/** The lists of example/client.py, as python3 imports them. */
function pythonLists(): ExampleLists {
  const script = 'import json, sys; sys.path.insert(0, "conformance/client-check/example"); import client; print(json.dumps({"known": sorted(client.KNOWN_ORDER_STATUSES), "final": sorted(client.FINAL_ORDER_STATUSES)}))';
  const run = spawnSync('python3', ['-c', script], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as ExampleLists;
}

describe("the copies of the contract's status lists", () => {
  it('the console lists every order and trip status, in the contract’s order', () => {
    expect([...consoleOrderStatuses]).toEqual([...orderStatuses]);
    expect([...consoleTripStatuses]).toEqual([...tripStatuses]);
  });

  it('the console takes as writes exactly the integration operations that are not GETs', () => {
    const writes = [...operations.values()].filter((operation) => operation.method !== 'GET').map((operation) => operation.operationId);
    expect(writes.length).toBeGreaterThan(0);
    expect([...consoleWrites].sort()).toEqual(writes.sort());
  });

  it.each([
    ['client.mjs', javascriptLists],
    ['client.py', async () => pythonLists()],
  ] as const)('example %s knows every listed order status, and takes as final exactly the end values and those the decisions make final', async (_name, lists) => {
    const { known, final } = await lists();
    expect([...known].sort()).toEqual([...orderStatuses].sort());
    expect([...final].sort()).toEqual([...FINAL].sort());
    // Final ones are listed ones: the contract names every one of them.
    for (const status of FINAL) expect(orderStatuses).toContain(status);
  });
});
