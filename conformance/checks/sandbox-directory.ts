/**
 * Sandbox, directory: the tag rules and the mini-status rules (the directory's entries and the
 * label an order carries), each produced in a tenant the check builds.
 */
import { randomUUID } from 'node:crypto';
import type { Check } from '../types.ts';
import { onControlPlane } from './support/control-plane.ts';

/** Tag name 1 to 64 characters and unique, colour #RRGGBB, an unknown tag 404. */
export const tagRules: Check = {
  id: 'sandbox.tags',
  family: 'sandbox',
  title: 'an empty or 65-character tag name, a colour that is not #RRGGBB and a repeated name are refused; an unknown tag is 404 tags.notFound',
  verifies: ['int.tag.rules', 'int.limits.tag-name'],
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
  requires: ['sandbox'],
  run: onControlPlane(async (plane) => {
    const tenant = await plane.tenant();
    const directory = `${tenant}/ministatuses`;
    const create = (status: string, name: string) => ({ method: 'POST', path: directory, body: { status, name } });
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

/** The directory checks. */
export const sandboxDirectoryChecks: Check[] = [tagRules, miniStatusRules];
