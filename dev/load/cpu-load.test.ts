/**
 * The CPU burners of a loaded run never outlive it: `stop` kills them, and a harness killed
 * outright (no `stop`, no exit handler) still takes them along.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startCpuLoad } from './cpu-load.ts';

/** True while `pid` runs (a zombie waiting to be reaped has stopped running). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe.skipIf(process.platform !== 'linux')('the CPU burners', () => {
  it('run until stopped, then are gone', async () => {
    const load = startCpuLoad(2);
    expect(load.pids).toHaveLength(2);
    expect(load.alive()).toBe(2);
    expect(load.pids.every(running)).toBe(true);
    await load.stop();
    expect(load.alive()).toBe(0);
    expect(load.pids.some(running)).toBe(false);
  });

  it('leave by themselves when the process that started them is killed', async () => {
    const module = fileURLToPath(new URL('./cpu-load.ts', import.meta.url));
    const harness = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `const { startCpuLoad } = await import(${JSON.stringify(module)}); console.log(startCpuLoad(2).pids.join(','));`], { stdio: ['ignore', 'pipe', 'inherit'] });
    const pids = await new Promise<number[]>((resolve) => harness.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim().split(',').map(Number))));
    expect(pids.every(running)).toBe(true);
    harness.kill('SIGKILL');
    await expect.poll(() => pids.some(running), { timeout: 10_000, interval: 100 }).toBe(false);
  });
});
