/** Control-plane handlers of the tenant's simulation — being built (issue 13). */
import type { Store } from '../store/index.ts';
import type { Handler } from './respond.ts';

/** Handlers of the simulation operations. */
export function makeSimulationHandlers(_store: Store): Record<string, Handler> {
  const notYet: Handler = () => {
    throw new Error('not built yet');
  };
  return { getSimulation: notYet, setSimulation: notYet, stopSimulation: notYet,  };
}
