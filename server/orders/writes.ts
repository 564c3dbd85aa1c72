/** The writes addressed by external id: payment (D10), cancel (D11), archive (D12). */
import type { Request, Response } from 'express';
import type { CancelRequest, PaymentRequest } from '../../spec/load.ts';
import { contextOf, principalOf } from '../http/context.ts';
import { bounded, problem } from '../http/problem.ts';
import { sendEmpty, sendJsonText } from '../http/reply.ts';
import type { Orders, OrderWriteResult } from './store.ts';

/** What each write does to an order, in the words of its 409: an order "cannot be cancelled". */
export const WRITE_MOVES: Readonly<Record<string, string>> = { attachPayment: 'paid', cancelOrder: 'cancelled', archiveOrder: 'archived' };

/** The 404 of a write addressed to an external id no live order of the tenant carries (D12). */
export function orderNotFound(externalId: string) {
  return problem('orders.notFound', `No order with external id ${bounded(externalId)}.`);
}

/** The 409 of a move that is not legal from the order's `status` (D11, D12). */
export function illegalMove(status: string, move: string) {
  return problem('orders.status.illegal', `An order in status ${status} cannot be ${move}.`);
}

// requirement: int.status.illegal-move
// requirement: int.payment.not-found
// requirement: int.cancel.not-found
// requirement: int.archive.not-found
// requirement: cat.orders.not-found
/** The order JSON of a successful write (noting what it changed for the request log, D48), or the problem of a refused one. */
function orderOrProblem(res: Response, result: OrderWriteResult, externalId: string, move: string): string {
  if (result.ok) {
    contextOf(res).changed = result.changed;
    return result.orderJson;
  }
  if (result.reason === 'notFound') throw orderNotFound(externalId);
  throw illegalMove(result.status, move);
}

/** Handlers of the three writes over the order store. */
export function makeOrderWriteHandlers(options: { orders: Orders }) {
  // requirement: int.service.tenant-only
  const target = (res: Response) => ({ tenantId: principalOf(res).tenantId, externalId: contextOf(res).input!.params['externalId']! });

  return {
    // requirement: int.payment.response
    // requirement: int.payment.amount
    // requirement: int.payment.currency
    // requirement: D19
    async attachPayment(_req: Request, res: Response): Promise<void> {
      const { tenantId, externalId } = target(res);
      const payment = contextOf(res).input!.body as PaymentRequest;
      const result = await options.orders.attachPayment(tenantId, externalId, {
        paymentId: payment.paymentId,
        amount: payment.amount,
        currency: payment.currency,
      });
      sendJsonText(res, 200, orderOrProblem(res, result, externalId, WRITE_MOVES['attachPayment']!));
    },
    // requirement: int.cancel.response
    // requirement: int.cancel.reason
    async cancelOrder(_req: Request, res: Response): Promise<void> {
      const { tenantId, externalId } = target(res);
      const { reason } = contextOf(res).input!.body as CancelRequest;
      sendJsonText(res, 200, orderOrProblem(res, await options.orders.cancel(tenantId, externalId, reason ?? null), externalId, WRITE_MOVES['cancelOrder']!));
    },
    // requirement: int.archive.no-content
    async archiveOrder(_req: Request, res: Response): Promise<void> {
      const { tenantId, externalId } = target(res);
      orderOrProblem(res, await options.orders.archive(tenantId, externalId), externalId, WRITE_MOVES['archiveOrder']!);
      sendEmpty(res, 204);
    },
  };
}
