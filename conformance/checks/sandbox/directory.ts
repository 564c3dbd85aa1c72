/**
 * Sandbox, directory: the tag rules and the mini-status rules (the directory's entries and the
 * label an order carries), the seeds' and those D34 and D35 decide, each produced in a tenant
 * the check builds.
 */
import { randomUUID } from 'node:crypto';
import type { OrderStatusName } from '../../../spec/load.ts';
import { finding, show } from '../../engine/findings.ts';
import type { Check } from '../../engine/types/check.ts';
import { intake, onControlPlane } from '../support/control-plane.ts';

/** Tag name 1 to 64 characters and unique, colour #RRGGBB, an unknown tag 404. */
export const tagRules: Check = {
  id: 'sandbox.tags',
  family: 'sandbox',
  title: 'an empty or 65-character tag name, a colour that is not #RRGGBB and a repeated name are refused; an unknown tag is 404 tags.notFound',
  verifies: ['int.tag.rules', 'int.limits.tag-name'],
  fix: 'refuse a tag name that is empty or over 64 characters, a colour that is not #RRGGBB and a name the tenant already uses, each with its tags.* code, and answer an unknown tag with 404 tags.notFound (int.tag.rules, int.limits.tag-name)',
  requires: ['sandbox'],
  run: onControlPlane(async (plane) => {
    const tags = `${await plane.tenant()}/tags`;
    const create = (body: Record<string, unknown>) => ({ method: 'POST', path: tags, body });
    await plane.expect({ what: 'a tag named ""', code: 'tags.name.invalid', field: 'name', request: create({ name: '', color: '#41EEBA' }) });
    await plane.expect({ what: 'a tag name of 65 characters', code: 'tags.name.invalid', field: 'name', request: create({ name: 'x'.repeat(65), color: '#41EEBA' }) });
    await plane.expect({ what: 'a tag coloured "red"', code: 'tags.color.invalid', field: 'color', request: create({ name: 'Fragile', color: 'red' }) });
    await plane.need('creating the tag Fragile', create({ name: 'Fragile', color: '#41EEBA' }));
    await plane.expect({ what: 'a second tag named Fragile', code: 'tags.duplicate', request: create({ name: 'Fragile', color: '#000000' }) });
    await plane.expect({ what: 'recolouring a tag id nobody issued', code: 'tags.notFound', request: { method: 'PATCH', path: `${tags}/${randomUUID()}`, body: { color: '#000000' } } });
  }),
};

/** Directory names 1 to 64 and unique per group; an order's label at most 128 and an active entry of its status group. */
export const miniStatusRules: Check = {
  id: 'sandbox.ministatuses',
  family: 'sandbox',
  title: 'mini-status names of 65 characters, repeated names and unknown entries are refused; an order label over 128 characters or outside its status group is refused',
  verifies: ['int.order.mini-status-rules', 'int.limits.mini-status-name', 'int.limits.order-mini-status'],
  fix: "refuse a mini-status name over 64 characters, a name repeated within its status group and an unknown entry, and an order label over 128 characters or outside the order's status group, each with its code (int.order.mini-status-rules, int.limits.mini-status-name, int.limits.order-mini-status)",
  requires: ['sandbox'],
  run: onControlPlane(async (plane) => {
    const tenant = await plane.tenant();
    const directory = `${tenant}/ministatuses`;
    const create = (status: OrderStatusName, name: string) => ({ method: 'POST', path: directory, body: { status, name } });
    await plane.expect({ what: 'a mini-status name of 65 characters', code: 'ministatuses.name.invalid', field: 'name', request: create('New', 'x'.repeat(65)) });
    await plane.need('adding the mini-status "Awaiting stock" to New', create('New', 'Awaiting stock'));
    await plane.expect({ what: 'a second "Awaiting stock" in New', code: 'ministatuses.duplicate', request: create('New', 'Awaiting stock') });
    await plane.expect({ what: 'deactivating a mini-status id nobody issued', code: 'ministatuses.notFound', request: { method: 'DELETE', path: `${directory}/${randomUUID()}` } });
    const label = `${tenant}/orders/${encodeURIComponent(await plane.order(tenant, 'WAYBILL-MINI-1'))}/mini-status`;
    const set = (miniStatus: string) => ({ method: 'PUT', path: label, body: { miniStatus } });
    await plane.expect({ what: 'an order mini-status of 129 characters', code: 'orders.miniStatus.invalid', field: 'miniStatus', request: set('x'.repeat(129)) });
    await plane.expect({ what: 'an order mini-status that is no entry of the directory', code: 'orders.miniStatus.unknown', field: 'miniStatus', request: set('Not in the directory') });
    await plane.need('adding the mini-status "Left with neighbour" to FullyDelivered', create('FullyDelivered', 'Left with neighbour'));
    await plane.expect({ what: "a New order's mini-status that is an entry of FullyDelivered only", code: 'orders.miniStatus.unknown', field: 'miniStatus', request: set('Left with neighbour') });
  }),
};

/** Tag names compare without case; colours take hex digits of either case; an order with another tenant's tag id is 404 (D34). */
export const tagsDecided: Check = {
  id: 'sandbox.tags.decided',
  family: 'sandbox',
  title: "tag names are unique case-insensitively, on create and rename; a lower-case colour is accepted; a recolour keeps the name; an order with a tag id the tenant lacks is 404 tags.notFound",
  verifies: ['D34'],
  fix: 'compare tag names without case on create and rename, accept a lower-case colour, keep the name on a recolour, and refuse an order with a tag id the tenant lacks with 404 tags.notFound (D34)',
  requires: ['sandbox'],
  run: onControlPlane(async (plane) => {
    const tenant = await plane.tenant();
    const tags = `${tenant}/tags`;
    const create = (body: Record<string, unknown>) => ({ method: 'POST', path: tags, body });
    await plane.need('creating the tag Fragile coloured #41eeba (lower-case digits)', create({ name: 'Fragile', color: '#41eeba' }));
    await plane.expect({ what: 'a tag named FRAGILE beside Fragile', code: 'tags.duplicate', request: create({ name: 'FRAGILE', color: '#000000' }) });
    const heavy = await plane.needId('creating the tag Heavy', create({ name: 'Heavy', color: '#000000' }));
    const path = `${tags}/${encodeURIComponent(heavy)}`;
    await plane.expect({ what: 'renaming Heavy to fragile', code: 'tags.duplicate', request: { method: 'PATCH', path, body: { name: 'fragile' } } });
    const recoloured = await plane.need('recolouring Heavy', { method: 'PATCH', path, body: { color: '#C6BDF8' } });
    if (recoloured['name'] !== 'Heavy' || String(recoloured['color']).toUpperCase() !== '#C6BDF8') {
      plane.findings.push(finding('recolouring the tag Heavy to #C6BDF8: only the fields sent change', show({ name: 'Heavy', color: '#C6BDF8' }), show({ name: recoloured['name'], color: recoloured['color'] })));
    }
    await plane.expect({ what: 'an order with a tag id the tenant does not have', code: 'tags.notFound', request: { method: 'POST', path: `${tenant}/orders`, body: intake('WAYBILL-TAGGED-1', { tags: [randomUUID()] }) } });
  }),
};

/**
 * Mini-statuses (D35): a group is an order status; names are unique case-insensitively among a
 * group's active entries; an order's label matches case-insensitively and is stored as the
 * directory spells it; a deactivated entry stays listed as inactive, cannot be set, keeps the
 * labels orders carry and frees its name.
 */
export const miniStatusesDecided: Check = {
  id: 'sandbox.ministatuses.decided',
  family: 'sandbox',
  title: 'mini-status names are unique per status case-insensitively; a label is matched without case and stored as the directory spells it; a deactivated entry stays listed inactive, cannot be set and frees its name',
  verifies: ['D35'],
  fix: 'compare mini-status names without case within a status, store a label as the directory spells it, and keep a deactivated entry listed as inactive, unsettable, its name free again (D35)',
  requires: ['sandbox'],
  run: onControlPlane(async (plane) => {
    const tenant = await plane.tenant();
    const directory = `${tenant}/ministatuses`;
    const create = (status: OrderStatusName, name: string) => ({ method: 'POST', path: directory, body: { status, name } });
    const entry = await plane.needId('adding "Awaiting stock" to New', create('New', 'Awaiting stock'));
    await plane.expect({ what: '"AWAITING STOCK" in New beside "Awaiting stock"', code: 'ministatuses.duplicate', request: create('New', 'AWAITING STOCK') });
    await plane.need('adding "Awaiting stock" to InPlanning, another status group', create('InPlanning', 'Awaiting stock'));
    const orderId = await plane.order(tenant, 'WAYBILL-MINI-2');
    const order = `${tenant}/orders/${encodeURIComponent(orderId)}`;
    const label = (miniStatus: string) => ({ method: 'PUT', path: `${order}/mini-status`, body: { miniStatus } });
    const labelled = await plane.need('labelling the New order "awaiting STOCK"', label('awaiting STOCK'));
    if (labelled['miniStatus'] !== 'Awaiting stock') plane.findings.push(finding('labelling the New order "awaiting STOCK": the label as the directory spells it', 'miniStatus "Awaiting stock"', `miniStatus ${show(labelled['miniStatus'])}`));
    const deactivate = { method: 'DELETE', path: `${directory}/${encodeURIComponent(entry)}` };
    await plane.need('deactivating "Awaiting stock" of New', deactivate);
    const items = (await plane.need('listing the directory', { method: 'GET', path: directory }))['items'];
    const listed = Array.isArray(items) ? (items as Record<string, unknown>[]).find((item) => item['id'] === entry) : undefined;
    if (listed?.['active'] !== false) plane.findings.push(finding('the directory after deactivating "Awaiting stock" of New: the entry listed as inactive', `an entry ${entry} with active false`, listed === undefined ? 'no such entry' : show(listed)));
    await plane.expect({ what: 'deactivating the inactive entry again', code: 'ministatuses.notFound', request: deactivate });
    const kept = await plane.need('reading the labelled order', { method: 'GET', path: order });
    if (kept['miniStatus'] !== 'Awaiting stock') plane.findings.push(finding("the order's label after its entry was deactivated: kept", 'miniStatus "Awaiting stock"', `miniStatus ${show(kept['miniStatus'])}`));
    await plane.expect({ what: 'labelling the order with the deactivated entry', code: 'orders.miniStatus.unknown', field: 'miniStatus', request: label('Awaiting stock') });
    await plane.need('adding "Awaiting stock" to New again, its old entry inactive', create('New', 'Awaiting stock'));
  }),
};

/** The directory checks. */
export const sandboxDirectoryChecks: Check[] = [tagRules, tagsDecided, miniStatusRules, miniStatusesDecided];
