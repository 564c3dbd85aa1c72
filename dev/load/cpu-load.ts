/**
 * A busy machine for a loaded run: one process per core (`os.availableParallelism()`) that
 * burns CPU until it is stopped. They are killed by `stop` (the caller's `finally` or `afterAll`),
 * else when this process exits; and should it be killed outright, each burner leaves by itself
 * once its parent is gone.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

/**
 * What each burner runs: spin for 100 ms, then yield one turn, in which it hears whether its
 * parent is gone (the IPC channel to it closes: `disconnect`) and leaves.
 */
const BURN = `process.once('disconnect', () => process.exit(0));
(function burn() {
  const until = Date.now() + 100;
  while (Date.now() < until);
  setImmediate(burn);
})();`;

/** Running burners. */
export interface CpuLoad {
  pids: number[];
  /** How many burners are still running (all of them, until `stop`). */
  alive(): number;
  /** Kills every burner and resolves once each has exited. Safe to call twice. */
  stop(): Promise<void>;
}

/** Starts `count` burners (one per core by default). */
export function startCpuLoad(count = availableParallelism()): CpuLoad {
  const burners: ChildProcess[] = Array.from({ length: count }, () => spawn(process.execPath, ['-e', BURN], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] }));
  const exited = burners.map((burner) => new Promise<void>((resolve) => (burner.exitCode !== null || burner.signalCode !== null ? resolve() : burner.once('exit', () => resolve()))));
  const kill = () => {
    for (const burner of burners) if (burner.exitCode === null && burner.signalCode === null) burner.kill('SIGKILL');
  };
  process.once('exit', kill);
  return {
    pids: burners.map((burner) => burner.pid!),
    alive: () => burners.filter((burner) => burner.exitCode === null && burner.signalCode === null).length,
    async stop() {
      process.off('exit', kill);
      kill();
      await Promise.all(exited);
    },
  };
}
