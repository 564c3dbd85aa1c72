/** Tags (D34) and the mini-status directory (D35). */
import type { components } from '../../spec/sandbox-types.ts';
import type { Store } from '../store/index.ts';
import { sendEmpty } from '../http/reply.ts';
import { bodyOf, type Handler, paramsOf, sendJson } from '../control-plane/respond.ts';

/** Handlers of the tag and mini-status operations. */
export function makeDirectoryHandlers(store: Store): Record<string, Handler> {
  const { directory } = store;
  return {
    async listTags(_req, res) {
      sendJson(res, 200, { items: await directory.listTags(paramsOf(res)['tenantId']!) });
    },
    async createTag(_req, res) {
      sendJson(res, 201, await directory.createTag(paramsOf(res)['tenantId']!, bodyOf<components['schemas']['NewTag']>(res)));
    },
    async updateTag(_req, res) {
      const params = paramsOf(res);
      sendJson(res, 200, await directory.updateTag(params['tenantId']!, params['tagId']!, bodyOf<components['schemas']['TagPatch']>(res)));
    },
    async listMiniStatuses(_req, res) {
      sendJson(res, 200, { items: await directory.listMiniStatuses(paramsOf(res)['tenantId']!) });
    },
    async createMiniStatus(_req, res) {
      sendJson(res, 201, await directory.createMiniStatus(paramsOf(res)['tenantId']!, bodyOf<components['schemas']['NewMiniStatus']>(res)));
    },
    async deactivateMiniStatus(_req, res) {
      const params = paramsOf(res);
      await directory.deactivateMiniStatus(params['tenantId']!, params['miniStatusId']!);
      sendEmpty(res, 204);
    },
  };
}
