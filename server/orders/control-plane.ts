/** Orders in the control plane: the list (D87), intake (D36), restore, mini-status (D35) and history (D40). */
import type { components } from '../../spec/sandbox-types.ts';
import type { CursorCodec } from '../domain/cursor.ts';
import type { OrderIntake } from './intake-rules.ts';
import { refuse } from '../domain/refusal.ts';
import type { Store } from '../store/index.ts';
import { makeListHandler } from '../control-plane/lists.ts';
import { bodyOf, type Handler, paramsOf, queryOf, sendJson } from '../control-plane/respond.ts';

/** Page size of the history when `limit` is absent, and its cap. */
const HISTORY_LIMIT = { default: 50, max: 100 };

/** Handlers of the order operations but the import. */
export function makeOrderHandlers(options: { store: Store; cursors: CursorCodec }): Record<string, Handler> {
  const { store, cursors } = options;
  const target = (res: Parameters<Handler>[1]) => ({ tenantId: paramsOf(res)['tenantId']!, orderId: paramsOf(res)['orderId']! });
  const detail = async (tenantId: string, orderId: string) =>
    (await store.orderDetail(tenantId, orderId)) ?? refuse('orders.notFound', `No order ${orderId} in the tenant.`);

  return {
    listOrders: makeListHandler('order-list', { pages: { newest: store.orders.newestPage, oldest: store.orders.feedPage }, cursors, noun: 'order' }),
    async createOrder(_req, res) {
      const tenantId = paramsOf(res)['tenantId']!;
      sendJson(res, 201, await detail(tenantId, await store.intake.create(tenantId, bodyOf<OrderIntake>(res))));
    },
    async getOrder(_req, res) {
      const { tenantId, orderId } = target(res);
      sendJson(res, 200, await detail(tenantId, orderId));
    },
    async restoreOrder(_req, res) {
      const { tenantId, orderId } = target(res);
      await store.intake.restore(tenantId, orderId);
      sendJson(res, 200, await detail(tenantId, orderId));
    },
    async setOrderMiniStatus(_req, res) {
      const { tenantId, orderId } = target(res);
      await store.intake.setMiniStatus(tenantId, orderId, bodyOf<components['schemas']['MiniStatusRequest']>(res).miniStatus);
      sendJson(res, 200, await detail(tenantId, orderId));
    },
    // requirement: D40
    async orderHistory(_req, res) {
      const { tenantId, orderId } = target(res);
      await detail(tenantId, orderId);
      const query = queryOf<{ after?: string; limit?: number }>(res);
      // A history cursor is bound to its order: the codec's scope is tenant and order.
      const scope = `${tenantId}/${orderId}`;
      let afterSeq = 0;
      if (query.after !== undefined) {
        const position = cursors.decode('history', scope, query.after);
        if (position === null || !/^\d+$/.test(position.id)) {
          refuse('audit.cursor.invalid', 'The after cursor was not issued by this server for this order.', 'after', query.after);
        }
        afterSeq = Number(position.id);
      }
      const page = await store.history.page(orderId, afterSeq, Math.min(query.limit ?? HISTORY_LIMIT.default, HISTORY_LIMIT.max));
      const last = page.items[page.items.length - 1];
      const nextCursor = page.lastSeq === null || last === undefined ? null : cursors.encode('history', scope, { updatedAt: last.atUtc, id: String(page.lastSeq) });
      sendJson(res, 200, { items: page.items, nextCursor });
    },
  };
}
