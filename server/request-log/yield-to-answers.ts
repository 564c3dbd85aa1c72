/**
 * The request log's writer thread yields to the answers (D48): it runs at the lowest
 * priority, so that where it shares a core with the event loop the scheduler runs the
 * event loop first, and it takes the normal priority back while a batch it is handed has
 * waited longer than `CATCH_UP_MS`, so that the entries in memory stay as few as before.
 * Linux and macOS give a thread its own priority (`setpriority` on the calling thread);
 * where the system refuses a change (raising a priority may need a privilege), the thread
 * keeps the priority it has.
 */
import { setPriority } from 'node:os';

/** A batch that waited longer than this to be written makes the writer take the normal priority until it is caught up. */
export const CATCH_UP_MS = 100;
/** Back at the lowest priority once a batch waited no more than this. */
const CAUGHT_UP_MS = 20;
const LOWEST = 19;
const NORMAL = 0;

/** The priority of the calling thread, set on the batches' waits: `waited(ms)` for each batch before it is written. */
export function yieldToAnswers(set: (priority: number) => void = (priority) => setPriority(0, priority)) {
  let current: number | null = null;
  const become = (priority: number) => {
    if (current === priority) return;
    try {
      set(priority);
      current = priority;
    } catch {
      // Not allowed here (raising a priority back may need a privilege): it stays as it is, and is not asked again.
      current = priority;
    }
  };
  become(LOWEST);
  return {
    /** Tells it how long the batch about to be written waited since it was handed over. */
    waited(ms: number): void {
      if (ms > CATCH_UP_MS) become(NORMAL);
      else if (ms <= CAUGHT_UP_MS) become(LOWEST);
    },
  };
}
