/**
 * The sandbox's control plane as a client-check uses it: a tenant and keys per scenario, its
 * data, fault rules, clock and simulation, and afterwards its request log and order history.
 * Every call goes through the run's recorded sandbox client, so the report counts and redacts
 * them like any exchange of the suite; an unexpected answer is a broken sandbox, thrown.
 */
import type { HttpClient, HttpResponse } from '../engine/types/exchange.ts';
import { type components, scopeValues } from '../../spec/sandbox-types.ts';

type Schemas = components['schemas'];

/** The fault a log entry marks, as far as scenarios read it (RequestLogFault of spec/sandbox.yaml). */
type LoggedFault = Pick<Schemas['RequestLogFault'], 'fault' | 'source' | 'when'>;

/** One entry of a tenant's request log, as the list gives it and as far as scenarios read it (RequestLogSummary). */
export type LogSummary = Pick<Schemas['RequestLogSummary'], 'id' | 'atUtc' | 'operation' | 'method' | 'path' | 'status' | 'problemType' | 'latencyMs' | 'keyId' | 'requestId' | 'idempotencyKey' | 'replayed'> & {
  fault: LoggedFault | null;
};

/** A body of a log entry (RequestLogBody). */
export type LogBody = Schemas['RequestLogBody'];

/** An item of a feed page, as far as the log keeps it (RequestLogFeedPage). */
export type PageItem = Schemas['RequestLogFeedPage']['items'][number];

/** One entry with its bodies and, for a feed answer the client got whole, its page (RequestLogEntry). */
export type LogEntry = LogSummary & Pick<Schemas['RequestLogEntry'], 'request' | 'response' | 'page'>;

/**
 * A fault rule as the sandbox lists it (FaultRule), as far as staging proofs read it; its
 * operation compared as any string, as the scenarios name operations.
 */
export type FaultRuleState = Pick<Schemas['FaultRule'], 'id' | 'keyId' | 'fault' | 'status' | 'when' | 'remaining' | 'matched' | 'fired'> & { operation: string };

/** A key as created: its id and the secret shown once (CreatedApiKey). */
export type CreatedKey = Pick<Schemas['CreatedApiKey'], 'id' | 'secret'>;

/** What a scenario does to its tenant through the control plane. */
export interface ControlPlane {
  createTenant(name: string): Promise<string>;
  /** A key with every scope unless `options.scopes` says otherwise. */
  createKey(tenantId: string, name: string, options?: { scopes?: readonly string[]; rateLimitPerMinute?: number }): Promise<CreatedKey>;
  /** Revokes the tenant's key `keyId`: it answers 401 from the next request on (D22). */
  revokeKey(tenantId: string, keyId: string): Promise<void>;
  /** Takes in one order (one Delivery line); resolves to its id. */
  createOrder(tenantId: string, externalId: string): Promise<string>;
  /** Takes in `count` orders `<prefix>-0…` in one import. */
  importOrders(tenantId: string, prefix: string, count: number): Promise<void>;
  /** Adds a fault rule (a NewFaultRule, which the sandbox validates; scenarios build theirs from parts). */
  addFault(tenantId: string, rule: Record<string, unknown>): Promise<void>;
  setClock(tenantId: string, setting: Schemas['ClockSetting']): Promise<void>;
  /** Moves the tenant's clock on by an ISO 8601 duration; resolves to the changes the simulation made. */
  advanceClock(tenantId: string, by: string): Promise<number>;
  setSimulation(tenantId: string, setting: Schemas['SimulationSetting']): Promise<void>;
  /** Stops every simulation this control plane started (what they wrote stays). */
  stopSimulations(): Promise<void>;
  /** Every log entry of `keyId` with an id above `afterId`, oldest first. */
  requests(tenantId: string, keyId: string, afterId?: number): Promise<LogSummary[]>;
  entry(tenantId: string, entryId: number): Promise<LogEntry>;
  /** The kinds of the order's history entries, oldest first (`payment`, `cancel`, …). */
  historyKinds(tenantId: string, orderId: string): Promise<string[]>;
  /** The order's status (its id in the sandbox). */
  orderStatus(tenantId: string, orderId: string): Promise<string>;
  /** The tenant's fault rules, oldest first. */
  faults(tenantId: string): Promise<FaultRuleState[]>;
  /** The tenant's keys: id, scopes, revoked or not. */
  keys(tenantId: string): Promise<{ id: string; scopes: string[]; revoked: boolean }[]>;
  /** Whether the tenant's simulation is running. */
  simulationRunning(tenantId: string): Promise<boolean>;
  /** Builds a trip from the orders (D41); resolves to the new trip's id and updatedAtUtc. */
  buildTrip(tenantId: string, orderIds: readonly string[]): Promise<{ id: string; updatedAtUtc: string }>;
  /** Deletes every fault rule of the tenant. */
  deleteFaults(tenantId: string): Promise<void>;
}

const WAREHOUSE = '5c8e7d6f-1a2b-4c3d-9e8f-7a6b5c4d3e2f';
const PRODUCT = '0d6b9a3e-2c4f-4e1a-8b7d-9f0e1c2a3b4d';

/** An order intake with one Delivery line. */
function intake(externalId: string): Schemas['OrderIntake'] {
  return { externalId, type: 'Delivery', lines: [{ warehouseId: WAREHOUSE, productId: PRODUCT, quantity: 1, weightKg: 1, volumeM3: 0.01, price: 10 }] };
}

/** The control plane over `sandbox` (the run's recorded client of `/sandbox/v1`). */
export function controlPlane(sandbox: HttpClient): ControlPlane {
  const call = async (method: string, path: string, body?: unknown): Promise<HttpResponse> => {
    const answer = await sandbox.request({ method, path, ...(body === undefined ? {} : { body }) });
    if (answer.status < 200 || answer.status > 299) {
      const { type, detail } = (answer.json ?? {}) as { type?: unknown; detail?: unknown };
      throw new Error(`the sandbox refused ${method} ${path}: ${answer.status}${typeof type === 'string' ? ` ${type}` : ''}${typeof detail === 'string' ? ` (${detail})` : ''}`);
    }
    return answer;
  };
  const json = async <T>(method: string, path: string, body?: unknown): Promise<T> => (await call(method, path, body)).json as T;
  const tenant = (tenantId: string) => `/tenants/${encodeURIComponent(tenantId)}`;
  const simulated = new Set<string>();
  return {
    createTenant: async (name) => (await json<Schemas['Tenant']>('POST', '/tenants', { name, country: 'NL' } satisfies Schemas['NewTenant'])).id,
    createKey: (tenantId, name, options = {}) => json<CreatedKey>('POST', `${tenant(tenantId)}/keys`, { name, scopes: [...scopeValues], ...options }),
    revokeKey: async (tenantId, keyId) => void (await call('POST', `${tenant(tenantId)}/keys/${encodeURIComponent(keyId)}/revoke`)),
    createOrder: async (tenantId, externalId) => (await json<Schemas['OrderDetail']>('POST', `${tenant(tenantId)}/orders`, intake(externalId))).id,
    importOrders: async (tenantId, prefix, count) => {
      const rows = Array.from({ length: count }, (_, index) => intake(`${prefix}-${index}`));
      const result = await json<Schemas['ImportResult']>('POST', `${tenant(tenantId)}/order-imports`, { rows });
      if (result.failed > 0) throw new Error(`the sandbox refused ${result.failed} of ${count} imported orders`);
    },
    addFault: async (tenantId, rule) => void (await call('POST', `${tenant(tenantId)}/faults`, rule)),
    setClock: async (tenantId, setting) => void (await call('PUT', `${tenant(tenantId)}/clock`, setting)),
    advanceClock: async (tenantId, by) => (await json<Schemas['ClockAdvanced']>('POST', `${tenant(tenantId)}/clock/advance`, { by } satisfies Schemas['ClockAdvance'])).changes,
    setSimulation: async (tenantId, setting) => {
      simulated.add(tenantId);
      await call('PUT', `${tenant(tenantId)}/simulation`, setting);
    },
    stopSimulations: async () => {
      for (const tenantId of simulated) await call('DELETE', `${tenant(tenantId)}/simulation`);
      simulated.clear();
    },
    requests: async (tenantId, keyId, afterId = 0) => {
      const entries: LogSummary[] = [];
      let after: string | null = null;
      do {
        const query: string = `keyId=${encodeURIComponent(keyId)}&limit=100${after === null ? '' : `&after=${encodeURIComponent(after)}`}`;
        const page: Schemas['RequestLogPage'] = await json('GET', `${tenant(tenantId)}/requests?${query}`);
        entries.push(...page.items);
        // Newest first: once a page reaches entries already seen, the rest are older still.
        after = page.items.some((entry) => entry.id <= afterId) ? null : page.nextCursor;
      } while (after !== null);
      return entries.filter((entry) => entry.id > afterId).sort((a, b) => a.id - b.id);
    },
    entry: (tenantId, entryId) => json<LogEntry>('GET', `${tenant(tenantId)}/requests/${entryId}`),
    historyKinds: async (tenantId, orderId) => {
      const kinds: string[] = [];
      let after: string | null = null;
      do {
        const query: string = after === null ? '' : `?after=${encodeURIComponent(after)}`;
        const page: Schemas['HistoryPage'] = await json('GET', `${tenant(tenantId)}/orders/${encodeURIComponent(orderId)}/history${query}`);
        kinds.push(...page.items.map((entry) => entry.kind));
        after = page.nextCursor;
      } while (after !== null);
      return kinds;
    },
    orderStatus: async (tenantId, orderId) => (await json<Schemas['OrderDetail']>('GET', `${tenant(tenantId)}/orders/${encodeURIComponent(orderId)}`)).status,
    faults: async (tenantId) => (await json<Schemas['FaultRuleList']>('GET', `${tenant(tenantId)}/faults`)).items,
    keys: async (tenantId) => (await json<Schemas['ApiKeyList']>('GET', `${tenant(tenantId)}/keys`)).items.map(({ id, scopes, revokedAtUtc }) => ({ id, scopes, revoked: revokedAtUtc !== null })),
    simulationRunning: async (tenantId) => (await json<Schemas['Simulation']>('GET', `${tenant(tenantId)}/simulation`)).running,
    buildTrip: (tenantId, orderIds) => json<Schemas['TripDetail']>('POST', `${tenant(tenantId)}/trips`, { orderIds: [...orderIds] } satisfies Schemas['TripBuild']),
    deleteFaults: async (tenantId) => void (await call('DELETE', `${tenant(tenantId)}/faults`)),
  };
}
