/** The tenant's directory: tags (D34) and mini-statuses (D35). Names compare case-insensitively. */
import { randomUUID } from 'node:crypto';
import type { components } from '../../spec/sandbox-types.ts';
import { type TenantClock, utc } from '../domain/time.ts';
import { refuse } from '../domain/refusal.ts';
import { type Db, transaction } from '../store/db.ts';

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

/** Directory statements, prepared once. */
export function makeDirectory(db: Db, clock: TenantClock) {
  const tags = db.prepare<[string], Tag>('SELECT id, name, color FROM tags WHERE tenant_id = ? ORDER BY name, id');
  const tag = db.prepare<[string, string], Tag>('SELECT id, name, color FROM tags WHERE id = ? AND tenant_id = ?');
  const insertTag = db.prepare('INSERT INTO tags (id, tenant_id, name, color) VALUES (?, ?, ?, ?)');
  const updateTag = db.prepare('UPDATE tags SET name = ?, color = ? WHERE id = ?');
  const miniStatuses = db.prepare<[string], MiniStatusRow>('SELECT id, status, name, active FROM ministatuses WHERE tenant_id = ? ORDER BY status, name_key, rowid');
  const activeMiniStatus = db.prepare<[string, string, string], MiniStatusRow>(
    'SELECT id, status, name, active FROM ministatuses WHERE tenant_id = ? AND status = ? AND name_key = ? AND active = 1',
  );
  const insertMiniStatus = db.prepare('INSERT INTO ministatuses (id, tenant_id, status, name, name_key, created_at) VALUES (?, ?, ?, ?, ?, ?)');
  const deactivate = db.prepare('UPDATE ministatuses SET active = 0 WHERE id = ? AND tenant_id = ? AND active = 1');

  /** Refuses `name` when another tag of the tenant has it, case-insensitively. */
  const assertTagNameFree = (tenantId: string, name: string, exceptId: string | null) => {
    const clash = tags.all(tenantId).find((t) => t.id !== exceptId && fold(t.name) === fold(name));
    if (clash !== undefined) refuse('tags.duplicate', `A tag named ${clash.name} exists.`);
  };

  return {
    /** The tenant's tags, by name. */
    listTags(tenantId: string): Tag[] {
      return tags.all(tenantId);
    },
    /** The ids among `ids` that name no tag of the tenant. */
    unknownTags(tenantId: string, ids: readonly string[]): string[] {
      return ids.filter((id) => tag.get(id, tenantId) === undefined);
    },
    // requirement: int.tag.rules
    // requirement: D34
    /** Creates a tag; refuses a name the tenant already has. */
    createTag: transaction(db, (tenantId: string, input: { name: string; color: string }): Tag => {
      assertTagNameFree(tenantId, input.name, null);
      const id = randomUUID();
      insertTag.run(id, tenantId, input.name, input.color);
      return { id, name: input.name, color: input.color };
    }),
    /** Renames or recolours a tag; refuses an unknown tag and a name another tag has. */
    updateTag: transaction(db, (tenantId: string, id: string, patch: { name?: string; color?: string }): Tag => {
      const current = tag.get(id, tenantId) ?? refuse('tags.notFound', `No tag ${id} in the tenant.`);
      if (patch.name !== undefined) assertTagNameFree(tenantId, patch.name, id);
      const next = { id, name: patch.name ?? current.name, color: patch.color ?? current.color };
      updateTag.run(next.name, next.color, id);
      return next;
    }),
    /** The tenant's mini-status directory, inactive entries included. */
    listMiniStatuses(tenantId: string): MiniStatus[] {
      return miniStatuses.all(tenantId).map(toMiniStatus);
    },
    /** The active entry named `name` (case-insensitively) for `status`, or undefined. */
    activeMiniStatus(tenantId: string, status: string, name: string): MiniStatus | undefined {
      const row = activeMiniStatus.get(tenantId, status, fold(name));
      return row && toMiniStatus(row);
    },
    // requirement: int.order.mini-status-rules
    // requirement: D35
    /** Adds an active entry; refuses a name the group already has among its active entries. */
    createMiniStatus: transaction(db, (tenantId: string, input: Pick<MiniStatus, 'status' | 'name'>): MiniStatus => {
      const clash = activeMiniStatus.get(tenantId, input.status, fold(input.name));
      if (clash !== undefined) refuse('ministatuses.duplicate', `The ${input.status} group already has an active entry ${clash.name}.`);
      const id = randomUUID();
      insertMiniStatus.run(id, tenantId, input.status, input.name, fold(input.name), utc(clock(tenantId)));
      return { id, status: input.status, name: input.name, active: true };
    }),
    /** Deactivates an active entry; refuses an unknown or inactive one. */
    deactivateMiniStatus(tenantId: string, id: string): void {
      if (deactivate.run(id, tenantId).changes === 0) refuse('ministatuses.notFound', `No active mini-status ${id} in the tenant.`);
    },
  };
}

export type Directory = ReturnType<typeof makeDirectory>;
