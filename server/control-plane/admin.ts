/** The sandbox as a whole: reset (D38) and conformance profiles (D39). */
import { sendEmpty } from '../http/reply.ts';
import type { RequestLog } from '../request-log/recorder.ts';
import type { Store } from '../store/index.ts';
import { PROFILE_FEEDS } from '../profiles/provision.ts';
import { type Handler, sendJson } from './respond.ts';

/**
 * Handlers of `resetSandbox` and `createProfile`; the profile hands out `adminToken` as its
 * sandbox token. The request log lives beside the store (D48), and a reset empties it too (D38).
 */
export function makeAdminHandlers(options: { store: Store; adminToken: string; requestLog: RequestLog | null }): Record<string, Handler> {
  const { store } = options;
  return {
    // requirement: D38
    async resetSandbox(_req, res) {
      options.requestLog?.clear();
      await store.reset();
      sendEmpty(res, 204);
    },
    // requirement: D39
    async createProfile(req, res) {
      const name = (req.body as { name?: unknown } | undefined)?.name;
      const provisioned = await store.provision(typeof name === 'string' ? name : undefined);
      // The addresses are the ones the caller reached this server at.
      const target = `${req.protocol}://${req.get('host') ?? '127.0.0.1'}`;
      sendJson(res, 201, {
        target,
        auth: { header: 'X-Api-Key', prefix: '' },
        keys: provisioned.keys,
        orders: provisioned.orders,
        trips: provisioned.trips,
        feeds: PROFILE_FEEDS,
        sandbox: { url: `${target}/sandbox/v1`, token: options.adminToken },
      });
    },
  };
}
