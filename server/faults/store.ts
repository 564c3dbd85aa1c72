/**
 * Fault rules of each tenant (D51), kept in `fault_rules` and cached in memory, loaded at
 * start (`load`): every integration call asks for its tenant's rules, so a tenant without
 * rules must cost one map lookup. The counters (`matched`, `fired`) change in memory in the
 * step that counts a call, and are written behind it as increments, one write after another.
 *
 * One process (SQLite) spends a rule's `times` in memory too. Processes sharing a PostgreSQL
 * database spend them in the database, one statement that takes one if any is left, so that
 * a rule fires `times` times in all of them together (D82); a tenant's rules are read again
 * when its version says another process added or deleted one (tenants/versions.ts, D81), and
 * the control plane lists the counters the database holds.
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
    // Rules stored before problem faults existed (D95) answer none.
    problem: spec.problem ?? null,
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

/** Takes one of the rule's `times` from the rule itself; false when none is left (one process, whose memory is the truth). */
export function spendInMemory(rule: FaultRule): boolean {
  if (rule.remaining === null || rule.remaining <= 0) return false;
  rule.remaining -= 1;
  return true;
}

// In the order the rules were added: a new row's rowid is past every other's.
const ALL = statement('SELECT id, tenant_id, rule, remaining, matched, fired, created_at FROM fault_rules ORDER BY rowid');
const INSERT = statement('INSERT INTO fault_rules (id, tenant_id, rule, remaining, created_at) VALUES (?, ?, ?, ?, ?)');
const OF_TENANT = statement('SELECT id, tenant_id, rule, remaining, matched, fired, created_at FROM fault_rules WHERE tenant_id = ? ORDER BY rowid');
// Increments, not values: two processes counting calls of one rule add up (D82). NULL remaining (no `times`) stays NULL.
const COUNT = statement('UPDATE fault_rules SET matched = matched + ?, fired = fired + ?, remaining = remaining + ? WHERE id = ?');
// requirement: D82
const SPEND = statement('UPDATE fault_rules SET remaining = remaining - 1 WHERE id = ? AND remaining > 0 RETURNING remaining');
const REMOVE_ONE = statement('DELETE FROM fault_rules WHERE tenant_id = ? AND id = ?');
const REMOVE_ALL = statement('DELETE FROM fault_rules WHERE tenant_id = ?');

/** The fault rules over `sql`, stamped with each tenant's clock; `load` before use. A counter that cannot be written is told to `onError`. */
export function makeFaults(sql: Sql, clock: TenantClock, onError: (error: unknown) => void = (error) => process.stderr.write(`fault rules: ${String(error)}\n`)) {
  // The tenants that have rules, each with its rules oldest first; a tenant without rules has no entry.
  // Rules this process added or deleted, per tenant: rules read from the database before one of
  // those writes committed must not replace the cache that holds it (`put`).
  const writes = new Map<string, number>();
  const wrote = (tenantId: string) => writes.set(tenantId, (writes.get(tenantId) ?? 0) + 1);
  let byTenant = new Map<string, FaultRule[]>();
  /** Reads every rule into the cache (at start, and after a reset emptied the table). */
  const load = async () => {
    const rows = await sql.all<FaultRow>(ALL);
    byTenant = new Map();
    for (const row of rows) byTenant.set(row.tenant_id, [...(byTenant.get(row.tenant_id) ?? []), ruleOf(row)]);
  };
  // Several processes on one database spend a rule's `times` in it (D82); one process, in memory.
  const shared = sql.engine === 'postgres';
  // The counters' writes, one after another: a later count never lands before an earlier one.
  let counting: Promise<unknown> = Promise.resolve();
  const saveCounts = (rule: FaultRule, matched: number, fired: number, remaining: number) => {
    const values = [matched, fired, rule.remaining === null ? 0 : remaining, rule.id];
    counting = counting.then(() => sql.run(COUNT, values)).catch(onError);
  };
  /** Resolves once every counter counted so far is written. */
  const settle = async (): Promise<void> => {
    await counting;
  };
  /** The tenant's rules as the database holds them, oldest first, once this process's counts are written. */
  const read = async (tenantId: string): Promise<FaultRule[]> => {
    await settle();
    return (await sql.all<FaultRow>(OF_TENANT, [tenantId])).map(ruleOf);
  };

  return {
    /** The tenant's rules, oldest first, or undefined when it has none (the hot path: one lookup). */
    rulesOf(tenantId: string): readonly FaultRule[] | undefined {
      return byTenant.get(tenantId);
    },
    /** Copies of the tenant's rules, oldest first, with the counters of every process (the database's) where several share it. */
    async list(tenantId: string): Promise<FaultRule[]> {
      return shared ? read(tenantId) : (byTenant.get(tenantId) ?? []).map((rule) => ({ ...rule }));
    },
    /** Adds a rule, in force from the next call; `remaining` starts at `times`. */
    async add(tenantId: string, spec: FaultRuleSpec): Promise<FaultRule> {
      const rule: FaultRule = ruleOf({ id: randomUUID(), tenant_id: tenantId, rule: JSON.stringify(spec), remaining: spec.times, matched: 0, fired: 0, created_at: utc(clock(tenantId)) });
      await sql.run(INSERT, [rule.id, tenantId, JSON.stringify(spec), rule.remaining, rule.createdAtUtc]);
      wrote(tenantId);
      byTenant.set(tenantId, [...(byTenant.get(tenantId) ?? []), rule]);
      return { ...rule };
    },
    /**
     * Takes one of the rule's `times`, about to fire; false when none is left. In memory in
     * one process; in the database where several share it, whose answer the cached rule
     * then holds (0 when another process took the last one).
     */
    spend(rule: FaultRule): boolean | Promise<boolean> {
      if (!shared) return spendInMemory(rule);
      return sql.one<{ remaining: number }>(SPEND, [rule.id]).then((row) => {
        rule.remaining = row?.remaining ?? 0;
        return row !== undefined;
      });
    },
    /** Counts a call the rule matched (and fired on, having spent one of its `times`): in memory at once, in the database behind it. */
    count(rule: FaultRule, fired: boolean): void {
      rule.matched += 1;
      if (fired) rule.fired += 1;
      // Spent in memory, the `times` taken is written with the count; spent in the database, it is there already.
      saveCounts(rule, 1, fired ? 1 : 0, fired && !shared ? -1 : 0);
    },
    /** Gives back a firing `count` recorded, and its `times`: an `after` rule whose write did not commit (D51) fired on nothing. */
    unfire(rule: FaultRule): void {
      rule.fired -= 1;
      if (rule.remaining !== null) rule.remaining += 1;
      saveCounts(rule, 0, -1, 1);
    },
    settle,
    /** Deletes the tenant's rule `id`; false when the tenant has no such rule. */
    async remove(tenantId: string, id: string): Promise<boolean> {
      if ((await sql.run(REMOVE_ONE, [tenantId, id])).changes === 0) return false;
      wrote(tenantId);
      const left = (byTenant.get(tenantId) ?? []).filter((rule) => rule.id !== id);
      if (left.length === 0) byTenant.delete(tenantId);
      else byTenant.set(tenantId, left);
      return true;
    },
    /** Deletes every rule of the tenant. */
    async clear(tenantId: string): Promise<void> {
      await sql.run(REMOVE_ALL, [tenantId]);
      wrote(tenantId);
      byTenant.delete(tenantId);
    },
    /** Reads the rules (at start; and after a reset emptied the table, the cache follows). */
    load,
    /** Reads the tenant's rules from the database, for `put` (D81). */
    read,
    /** How many times this process added or deleted rules of the tenant: taken before a `read`, handed to `put`. */
    writesOf: (tenantId: string): number => writes.get(tenantId) ?? 0,
    /** Keeps `rules`, as `read` answered them, as the tenant's, unless this process added or deleted one since `writesOf` answered `seen`. */
    put(tenantId: string, rules: FaultRule[], seen: number): void {
      if ((writes.get(tenantId) ?? 0) !== seen) return;
      if (rules.length === 0) byTenant.delete(tenantId);
      else byTenant.set(tenantId, rules);
    },
  };
}

export type Faults = ReturnType<typeof makeFaults>;
