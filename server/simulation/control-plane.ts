/** The tenant's living-feed simulation in the control plane (D53, D54): read, start or change, stop. */
import { simulationOf, type SimulationSetting } from './runner.ts';
import type { Store } from '../store/index.ts';
import { bodyOf, type Handler, paramsOf, sendJson } from '../control-plane/respond.ts';

// requirement: D53
// requirement: D54
/** Handlers of the simulation operations. */
export function makeSimulationHandlers(store: Store): Record<string, Handler> {
  const simulation = simulationOf(store);
  const tenantOf = (res: Parameters<Handler>[1]) => paramsOf(res)['tenantId']!;
  return {
    async getSimulation(_req, res) {
      sendJson(res, 200, await simulation.view(tenantOf(res)));
    },
    async setSimulation(_req, res) {
      sendJson(res, 200, await simulation.start(tenantOf(res), bodyOf<SimulationSetting>(res)));
    },
    async stopSimulation(_req, res) {
      sendJson(res, 200, await simulation.stop(tenantOf(res)));
    },
  };
}
