/**
 * Fault rules of each tenant (D51), kept in `fault_rules` and cached in memory, loaded at
 * start (`load`): this process is the only writer, and every integration call asks for its
 * tenant's rules, so a tenant without rules must cost one map lookup. The counters
 * (`matched`, `fired`, `remaining`) change in memory in the synchronous step that counts a
 * call, and are written behind it, one write after another.
 */
import { randomUUID } from 'node:crypto';
import type { components } from '../../spec/sandbox-types.ts';
import { type TenantClock, utc } from '../domain/time.ts';
import { type Sql, statement } from '../store/sql.ts';

type Schemas = components['schemas'];

/** What a fault does to a call (FaultKind of spec/sandbox.yaml). */
export type FaultKind = Schemas['FaultKind'];

/** Before the request runs, or after its effect is committed (writes only). */
export type FaultWhen = NonNullable<Schemas['FaultRule']['when']>;

/** The problem a 429 fault answers: the rate limit, or (writes only) a request with the same Idempotency-Key in flight. */
export type FaultProblemType = NonNullable<Schemas['FaultRule']['problemType']>;

/**
 * A rule as the control plane answers it (FaultRule of spec/sandbox.yaml); its operation any
 * operationId, as the server reads them from openapi.yaml.
 */
export type FaultRule = Omit<Schemas['FaultRule'], 'operation'> & { operation: string };

/** A rule's fixed part, as the control plane shows it minus id, counters and creation time. */
export type FaultRuleSpec = Omit<FaultRule, 'id' | 'remaining' | 'matched' | 'fired' | 'createdAtUtc'>;

interface FaultRow {
  id: string;
  tenant_id: string;
  rule: string;
  remaining: number | null;
  matched: number;
  fired: number;
  created_at: string;
}

/** The rule of a row, its members in the order of the contract. */
function ruleOf(row: FaultRow): FaultRule {
  const spec = JSON.parse(row.rule) as FaultRuleSpec;
  return {
    id: row.id,
    operation: spec.operation,
    keyId: spec.keyId,
    fault: spec.fault,
    status: spec.status,
    retryAfterSeconds: spec.retryAfterSeconds,
    // Rules stored before problemType existed: a 429 was always the rate limit.
    problemType: spec.problemType ?? (spec.status === 429 ? 'api.rate_limited' : null),
    latencyMs: spec.latencyMs,
    durationMs: spec.durationMs,
    when: spec.when,
    times: spec.times,
    remaining: row.remaining,
    probability: spec.probability,
    seed: spec.seed,
    matched: row.matched,
    fired: row.fired,
    createdAtUtc: row.created_at,
  };
}

// In the order the rules were added: a new row's rowid is past every other's.
const ALL = statement('SELECT id, tenant_id, rule, remaining, matched, fired, created_at FROM fault_rules ORDER BY rowid');
const INSERT = statement('INSERT INTO fault_rules (id, tenant_id, rule, remaining, created_at) VALUES (?, ?, ?, ?, ?)');
const SAVE_COUNTS = statement('UPDATE fault_rules SET matched = ?, fired = ?, remaining = ? WHERE id = ?');
const REMOVE_ONE = statement('DELETE FROM fault_rules WHERE tenant_id = ? AND id = ?');
const REMOVE_ALL = statement('DELETE FROM fault_rules WHERE tenant_id = ?');

/** The fault rules over `sql`, stamped with each tenant's clock; `load` before use. A counter that cannot be written is told to `onError`. */
export function makeFaults(sql: Sql, clock: TenantClock, onError: (error: unknown) => void = (error) => process.stderr.write(`fault rules: ${String(error)}\n`)) {
  // The tenants that have rules, each with its rules oldest first; a tenant without rules has no entry.
  let byTenant = new Map<string, FaultRule[]>();
  /** Reads every rule into the cache (at start, and after a reset emptied the table). */
  const load = async () => {
    const rows = await sql.all<FaultRow>(ALL);
    byTenant = new Map();
    for (const row of rows) byTenant.set(row.tenant_id, [...(byTenant.get(row.tenant_id) ?? []), ruleOf(row)]);
  };
  // The counters' writes, one after another: a later count never lands before an earlier one.
  let counting: Promise<unknown> = Promise.resolve();
  const saveCounts = (rule: FaultRule) => {
    const values = [rule.matched, rule.fired, rule.remaining, rule.id];
    counting = counting.then(() => sql.run(SAVE_COUNTS, values)).catch(onError);
  };

  return {
    /** The tenant's rules, oldest first, or undefined when it has none (the hot path: one lookup). */
    rulesOf(tenantId: string): readonly FaultRule[] | undefined {
      return byTenant.get(tenantId);
    },
    /** Copies of the tenant's rules, oldest first. */
    list(tenantId: string): FaultRule[] {
      return (byTenant.get(tenantId) ?? []).map((rule) => ({ ...rule }));
    },
    /** Adds a rule, in force from the next call; `remaining` starts at `times`. */
    async add(tenantId: string, spec: FaultRuleSpec): Promise<FaultRule> {
      const rule: FaultRule = ruleOf({ id: randomUUID(), tenant_id: tenantId, rule: JSON.stringify(spec), remaining: spec.times, matched: 0, fired: 0, created_at: utc(clock(tenantId)) });
      await sql.run(INSERT, [rule.id, tenantId, JSON.stringify(spec), rule.remaining, rule.createdAtUtc]);
      byTenant.set(tenantId, [...(byTenant.get(tenantId) ?? []), rule]);
      return { ...rule };
    },
    /** Counts a call the rule matched (and fired on, using up one of its `times`): in memory at once, in the database behind it. */
    count(rule: FaultRule, fired: boolean): void {
      rule.matched += 1;
      if (fired) {
        rule.fired += 1;
        if (rule.remaining !== null) rule.remaining -= 1;
      }
      saveCounts(rule);
    },
    /** Gives back a firing `count` recorded: an `after` rule whose write did not commit (D51) fired on nothing. */
    unfire(rule: FaultRule): void {
      rule.fired -= 1;
      if (rule.remaining !== null) rule.remaining += 1;
      saveCounts(rule);
    },
    /** Resolves once every counter counted so far is written. */
    async settle(): Promise<void> {
      await counting;
    },
    /** Deletes the tenant's rule `id`; false when the tenant has no such rule. */
    async remove(tenantId: string, id: string): Promise<boolean> {
      if ((await sql.run(REMOVE_ONE, [tenantId, id])).changes === 0) return false;
      const left = (byTenant.get(tenantId) ?? []).filter((rule) => rule.id !== id);
      if (left.length === 0) byTenant.delete(tenantId);
      else byTenant.set(tenantId, left);
      return true;
    },
    /** Deletes every rule of the tenant. */
    async clear(tenantId: string): Promise<void> {
      await sql.run(REMOVE_ALL, [tenantId]);
      byTenant.delete(tenantId);
    },
    /** Reads the rules (at start; and after a reset emptied the table, the cache follows). */
    load,
  };
}

export type Faults = ReturnType<typeof makeFaults>;
