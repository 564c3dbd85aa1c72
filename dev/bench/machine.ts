/**
 * What the machine is doing, from /proc (Linux): CPU time of one process, CPU time of the
 * whole machine, and a wait for other work (a test run in another shell) to finish before
 * a measurement starts. Elsewhere every reading is null and nothing waits.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux the bench is meant for

/** CPU seconds (user + system) a `/proc` stat file counts, or null where it cannot be read. */
function statSeconds(path: string): number | null {
  try {
    const stat = readFileSync(path, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) the process `pid` has used so far, or null where /proc is unavailable. */
export const cpuSeconds = (pid: number): number | null => statSeconds(`/proc/${pid}/stat`);

/** CPU seconds (user + system) the thread `tid` of process `pid` has used so far (`tid` = `pid`: its main thread), or null. */
export const threadCpuSeconds = (pid: number, tid: number): number | null => statSeconds(`/proc/${pid}/task/${tid}/stat`);

/** CPU seconds of the children of `pid` that ended (and were waited for), or 0. */
function endedChildrenSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds the process `pid` and its children have used so far (a PostgreSQL server: its
 * postmaster and backends), those that ended included, so that it never goes down when a
 * backend closes; or null.
 */
export function treeCpuSeconds(pid: number): number | null {
  const own = cpuSeconds(pid);
  if (own === null) return null;
  return childrenOf(pid).reduce((total, child) => total + (cpuSeconds(child) ?? 0), own + endedChildrenSeconds(pid));
}

/** The processes whose parent is `pid` (a PostgreSQL postmaster's backends, a cluster primary's workers, a mock's Prism). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) children.push(Number(entry));
    } catch {
      // A process that ended meanwhile.
    }
  }
  return children;
}

/**
 * CPU seconds the event loops of the server `pid` have used so far: the main thread of the
 * process and of each of its children (a cluster's workers, a mock's Prism), or null without
 * /proc. A process's other threads (a worker thread such as the request log's writer, V8's
 * collector, libuv's pool) are in `cpuSeconds` and not here. A child that ended is no longer
 * counted (the kernel keeps only its whole CPU), so a reading falls when one ends: the servers
 * measured keep their processes for the whole run.
 */
export function eventLoopCpuSeconds(pid: number): number | null {
  const own = threadCpuSeconds(pid, pid);
  if (own === null) return null;
  return childrenOf(pid).reduce((total, child) => total + (threadCpuSeconds(child, child) ?? 0), own);
}

/** CPU seconds all cores of the machine have been busy (not idle, not waiting on I/O), or null. */
export function machineBusySeconds(): number | null {
  try {
    const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).map(Number);
    const total = ticks.slice(0, 8).reduce((sum, n) => sum + n, 0);
    return (total - ticks[3]! - ticks[4]!) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/**
 * Waits until the machine has been nearly idle for a whole second (under `maxBusyPct` of
 * one core), checking once a second for at most `timeoutS`; resolves to the seconds waited,
 * or null when it gave up.
 */
export async function waitForQuiet(options: { maxBusyPct?: number; timeoutS?: number; onWait?: (busyPct: number) => void } = {}): Promise<number | null> {
  const maxBusyPct = options.maxBusyPct ?? 20;
  const timeoutS = options.timeoutS ?? 60;
  for (let waited = 0; waited < timeoutS; waited++) {
    const before = machineBusySeconds();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const after = machineBusySeconds();
    if (before === null || after === null) return 0;
    const busyPct = (after - before) * 100;
    if (busyPct < maxBusyPct) return waited;
    if (waited % 10 === 0) options.onWait?.(busyPct);
  }
  return null;
}

/** Resident memory of the process `pid` and its children (a primary and its workers), in MB, or null without /proc. */
export function treeRssMb(pid: number): number | null {
  const rssKb = (entry: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1] ?? 0);
  try {
    let total = rssKb(pid);
    for (const child of childrenOf(pid)) {
      try {
        total += rssKb(child);
      } catch {
        // A process that ended meanwhile.
      }
    }
    return Math.round(total / 1024);
  } catch {
    return null;
  }
}
