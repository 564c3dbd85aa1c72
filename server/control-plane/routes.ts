/**
 * The sandbox control plane (`spec/sandbox.yaml`), mounted at `/sandbox/v1`: one route per
 * operation, each behind the same chain, driven by the operation's spec — the admin
 * token, the JSON body, validation with the catalog's codes, then the tenant the path
 * names (D30, D31).
 */
import express, { type RequestHandler } from 'express';
import { listOperations, sandboxOpenapi } from '../../spec/load.ts';
import type { CursorCodec } from '../domain/cursor.ts';
import { makeAdminAuth } from '../http/admin-auth.ts';
import { makeJsonBody } from '../http/body.ts';
import { makeValidate } from '../http/validate.ts';
import { expressPath } from '../integration/routes.ts';
import type { RequestLog } from '../request-log/recorder.ts';
import type { Store } from '../store/index.ts';
import { makeAdminHandlers } from './admin.ts';
import { makeClockHandlers } from '../clock/control-plane.ts';
import { makeDirectoryHandlers } from '../directory/control-plane.ts';
import { makeFaultHandlers } from '../faults/control-plane.ts';
import { makeImportHandler } from '../orders/import.ts';
import { makeOrderHandlers } from '../orders/control-plane.ts';
import { makeRequestLogHandlers } from '../request-log/control-plane.ts';
import { answering, type Handler } from './respond.ts';
import { makeSimulationHandlers } from '../simulation/control-plane.ts';
import { makeTenantScope } from '../tenants/scope.ts';
import { makeTenantHandlers } from '../tenants/control-plane.ts';
import { makeTripHandlers } from '../trips/control-plane.ts';

/** Where the control plane is mounted. */
export const SANDBOX_PREFIX = '/sandbox/v1';

/** The control plane's operations, in document order. */
export const sandboxOperations = listOperations(sandboxOpenapi);

// requirement: D31
/**
 * Writes that stay open while a tenant is Suspended or Archived (D31): the lifecycle moves,
 * key revocation, and the sandbox's instruments — fault rules, the clock and the
 * simulation (D51–D53), which change how the tenant is served, not its data.
 */
const OPEN_WHEN_LOCKED = new Set([
  'suspendTenant',
  'reactivateTenant',
  'archiveTenant',
  'revokeApiKey',
  'createFault',
  'deleteFaults',
  'deleteFault',
  'setClock',
  'advanceClock',
  'setSimulation',
  'stopSimulation',
]);

/** The control-plane router over `store`, opened by `adminToken`. */
export function makeSandboxRouter(options: {
  store: Store;
  adminToken: string;
  cursors: CursorCodec;
  bodyIdleTimeoutMs: number;
  /** The request log the list, entry and stream read (D48); null when it is off. */
  requestLog?: RequestLog | null;
}) {
  const { store } = options;
  const handlers: Record<string, Handler> = {
    ...makeAdminHandlers({ store, adminToken: options.adminToken, requestLog: options.requestLog ?? null }),
    ...makeTenantHandlers(store),
    ...makeDirectoryHandlers(store),
    ...makeOrderHandlers({ store, cursors: options.cursors }),
    importOrders: makeImportHandler(store),
    ...makeTripHandlers({ store, cursors: options.cursors }),
    ...makeRequestLogHandlers({ log: options.requestLog ?? null, cursors: options.cursors }),
    ...makeFaultHandlers(store),
    ...makeClockHandlers(store),
    ...makeSimulationHandlers(store),
  };
  const auth = makeAdminAuth({ token: options.adminToken });
  const router = express.Router({ caseSensitive: true });

  for (const operation of sandboxOperations) {
    const handler = handlers[operation.operationId];
    if (handler === undefined) throw new Error(`no handler for sandbox operation ${operation.operationId}`);
    // requirement: D30
    const chain: RequestHandler[] = [auth];
    if (operation.requestBody !== null) {
      chain.push(makeJsonBody({ required: operation.requestBody.required, idleTimeoutMs: options.bodyIdleTimeoutMs }));
    }
    // requirement: int.tag.rules
    // requirement: int.limits.import-rows
    // requirement: int.limits.tag-name
    // requirement: int.limits.mini-status-name
    // requirement: int.limits.order-mini-status
    // requirement: D32
    // requirement: D33
    // requirement: D36
    chain.push(makeValidate(operation, 'sandbox'));
    if (operation.parameters.some((parameter) => parameter.in === 'path' && parameter.name === 'tenantId')) {
      const writes = operation.method !== 'GET' && !OPEN_WHEN_LOCKED.has(operation.operationId);
      chain.push(makeTenantScope({ tenants: store.tenants, writes, ...(store.shared === null ? {} : { versions: store.shared.versions }) }));
    }
    router[operation.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'](expressPath(operation.path), ...chain, answering(handler));
  }
  return router;
}
