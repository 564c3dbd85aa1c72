/** Control-plane handlers of the tenant's faults — being built (issue 13). */
import type { Store } from '../store/index.ts';
import type { Handler } from './respond.ts';

/** Handlers of the faults operations. */
export function makeFaultHandlers(_store: Store): Record<string, Handler> {
  const notYet: Handler = () => {
    throw new Error('not built yet');
  };
  return { listFaults: notYet, createFault: notYet, deleteFaults: notYet, deleteFault: notYet,  };
}
