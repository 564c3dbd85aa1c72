/**
 * The database latency of a loaded run: while `on`, every statement waits a delay drawn
 * uniformly from [minMs, maxMs] (50–200 ms by default), a fresh draw each time. It starts off,
 * so that the sandbox starts and its profile is provisioned at full speed; the run switches it
 * on before the checks. `delayed` counts the delays drawn, so a run can show it was slowed.
 */

/** A switchable source of per-statement delays. */
export interface Latency {
  on: boolean;
  readonly minMs: number;
  readonly maxMs: number;
  /** Delays drawn so far (statements or chunks slowed). */
  delayed: number;
  /** A fresh delay in milliseconds, counted in `delayed`. */
  draw(): number;
  /** Waits `ms`, or less if `release` is called meanwhile. */
  sleep(ms: number): Promise<void>;
  /** Ends every `sleep` still running at once: the target is closing, nothing is left to slow. */
  release(): void;
}

/** A latency of [minMs, maxMs] per statement, switched off. */
export function uniformLatency(minMs = 50, maxMs = 200): Latency {
  const sleeping = new Map<NodeJS.Timeout, () => void>();
  return {
    on: false,
    minMs,
    maxMs,
    delayed: 0,
    draw() {
      this.delayed += 1;
      return minMs + Math.random() * (maxMs - minMs);
    },
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          sleeping.delete(timer);
          resolve();
        }, ms);
        sleeping.set(timer, resolve);
      }),
    release() {
      for (const [timer, wake] of sleeping) {
        clearTimeout(timer);
        wake();
      }
      sleeping.clear();
    },
  };
}
