/** The tenant's directory: tags (D34) and mini-statuses (D35). Names compare case-insensitively. */
import { randomUUID } from 'node:crypto';
import type { components } from '../../spec/sandbox-types.ts';
import { type TenantClock, utc } from '../domain/time.ts';
import { refuse } from '../domain/refusal.ts';
import { q, type Sql, statement, type Steps } from '../store/sql.ts';

/** A tag (`Tag` of spec/sandbox.yaml). */
export type Tag = components['schemas']['Tag'];

/** An entry of the mini-status directory; `status` is the order status it labels (`MiniStatus`). */
export type MiniStatus = components['schemas']['MiniStatus'];

interface MiniStatusRow {
  id: string;
  status: MiniStatus['status'];
  name: string;
  active: number;
}

const fold = (name: string) => name.toLowerCase();
const toMiniStatus = (row: MiniStatusRow): MiniStatus => ({ id: row.id, status: row.status, name: row.name, active: row.active === 1 });

const TAGS = statement('SELECT id, name, color FROM tags WHERE tenant_id = ? ORDER BY name, id');
const TAG = statement('SELECT id, name, color FROM tags WHERE id = ? AND tenant_id = ?');
const INSERT_TAG = statement('INSERT INTO tags (id, tenant_id, name, color) VALUES (?, ?, ?, ?)');
const UPDATE_TAG = statement('UPDATE tags SET name = ?, color = ? WHERE id = ?');
const MINI_STATUSES = statement('SELECT id, status, name, active FROM ministatuses WHERE tenant_id = ? ORDER BY status, name_key, rowid');
const ACTIVE_MINI_STATUS = statement('SELECT id, status, name, active FROM ministatuses WHERE tenant_id = ? AND status = ? AND name_key = ? AND active = 1');
const INSERT_MINI_STATUS = statement('INSERT INTO ministatuses (id, tenant_id, status, name, name_key, created_at) VALUES (?, ?, ?, ?, ?, ?)');
const DEACTIVATE = statement('UPDATE ministatuses SET active = 0 WHERE id = ? AND tenant_id = ? AND active = 1');

/** The directory over `sql`. */
export function makeDirectory(sql: Sql, clock: TenantClock) {
  /** Refuses `name` when another tag of the tenant has it, case-insensitively. */
  function* assertTagNameFree(tenantId: string, name: string, exceptId: string | null): Steps<void> {
    const clash = (yield* q.all<Tag>(TAGS, [tenantId])).find((t) => t.id !== exceptId && fold(t.name) === fold(name));
    if (clash !== undefined) refuse('tags.duplicate', `A tag named ${clash.name} exists.`);
  }

  const steps = {
    /** The ids among `ids` that name no tag of the tenant. */
    *unknownTags(tenantId: string, ids: readonly string[]): Steps<string[]> {
      const unknown: string[] = [];
      for (const id of ids) if ((yield* q.one(TAG, [id, tenantId])) === undefined) unknown.push(id);
      return unknown;
    },
    /** The active entry named `name` (case-insensitively) for `status`, or undefined. */
    *activeMiniStatus(tenantId: string, status: string, name: string): Steps<MiniStatus | undefined> {
      const row = yield* q.one<MiniStatusRow>(ACTIVE_MINI_STATUS, [tenantId, status, fold(name)]);
      return row && toMiniStatus(row);
    },
  };

  return {
    /** The steps other units of work run inside their own transaction. */
    steps,
    /** The tenant's tags, by name. */
    listTags(tenantId: string): Promise<Tag[]> {
      return sql.all<Tag>(TAGS, [tenantId]);
    },
    // requirement: int.tag.rules
    // requirement: D34
    /** Creates a tag; refuses a name the tenant already has. */
    createTag: (tenantId: string, input: { name: string; color: string }): Promise<Tag> =>
      sql.write(tenantId, function* () {
        yield* assertTagNameFree(tenantId, input.name, null);
        const id = randomUUID();
        yield* q.run(INSERT_TAG, [id, tenantId, input.name, input.color]);
        return { id, name: input.name, color: input.color };
      }),
    /** Renames or recolours a tag; refuses an unknown tag and a name another tag has. */
    updateTag: (tenantId: string, id: string, patch: { name?: string; color?: string }): Promise<Tag> =>
      sql.write(tenantId, function* () {
        const current = (yield* q.one<Tag>(TAG, [id, tenantId])) ?? refuse('tags.notFound', `No tag ${id} in the tenant.`);
        if (patch.name !== undefined) yield* assertTagNameFree(tenantId, patch.name, id);
        const next = { id, name: patch.name ?? current.name, color: patch.color ?? current.color };
        yield* q.run(UPDATE_TAG, [next.name, next.color, id]);
        return next;
      }),
    /** The tenant's mini-status directory, inactive entries included. */
    async listMiniStatuses(tenantId: string): Promise<MiniStatus[]> {
      return (await sql.all<MiniStatusRow>(MINI_STATUSES, [tenantId])).map(toMiniStatus);
    },
    // requirement: int.order.mini-status-rules
    // requirement: D35
    /** Adds an active entry; refuses a name the group already has among its active entries. */
    createMiniStatus: (tenantId: string, input: Pick<MiniStatus, 'status' | 'name'>): Promise<MiniStatus> =>
      sql.write(tenantId, function* () {
        const clash = yield* steps.activeMiniStatus(tenantId, input.status, input.name);
        if (clash !== undefined) refuse('ministatuses.duplicate', `The ${input.status} group already has an active entry ${clash.name}.`);
        const id = randomUUID();
        yield* q.run(INSERT_MINI_STATUS, [id, tenantId, input.status, input.name, fold(input.name), utc(clock(tenantId))]);
        return { id, status: input.status, name: input.name, active: true };
      }),
    /** Deactivates an active entry; refuses an unknown or inactive one. */
    async deactivateMiniStatus(tenantId: string, id: string): Promise<void> {
      if ((await sql.run(DEACTIVATE, [id, tenantId])).changes === 0) refuse('ministatuses.notFound', `No active mini-status ${id} in the tenant.`);
    },
  };
}

export type Directory = ReturnType<typeof makeDirectory>;
