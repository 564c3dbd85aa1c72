/** The client runs without a shell, with waybill's own variables removed, and a timeout kills its whole process group. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clientEnvironment, runClient } from './client-process.ts';

/** True while a process with `pid` runs (a zombie waiting for its reaper is dead). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // `pid (comm) S …`: the state follows the command name.
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('running the client', () => {
  it('gives the task variables and none of waybill\'s own', () => {
    const env = clientEnvironment({ WAYBILL_TASK: 'pay' }, { PATH: '/bin', WAYBILL_ADMIN_TOKEN: 'wba_secret', WAYBILL_FROM_SOURCES: '1' });
    expect(env).toEqual({ PATH: '/bin', WAYBILL_TASK: 'pay' });
  });

  it('passes arguments as they are, with no shell to expand them', async () => {
    const exit = await runClient(process.execPath, ['-e', 'process.stderr.write(process.argv[1]); process.exit(3)', '$HOME; echo *'], { PATH: process.env['PATH'] ?? '' }, 10_000);
    expect(exit).toMatchObject({ exitCode: 3, timedOut: false, stderrTail: '$HOME; echo *' });
  });

  it('kills the process group, children included, when the time limit passes', async () => {
    // The client starts a child that would outlive it, prints the child's pid and then hangs.
    const script = "const c=require('child_process').spawn(process.execPath,['-e','setTimeout(()=>{},60000)'],{stdio:'ignore'});process.stderr.write(String(c.pid));setTimeout(()=>{},60000)";
    const exit = await runClient(process.execPath, ['-e', script], { PATH: process.env['PATH'] ?? '' }, 500);
    expect(exit.timedOut).toBe(true);
    expect(exit.finishedAt - exit.startedAt).toBeLessThan(10_000);
    const child = Number(exit.stderrTail);
    expect(child).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(alive(child)).toBe(false);
  });

  it('refuses a command that does not exist as a tool error', async () => {
    await expect(runClient('/no/such/client', [], {}, 1000)).rejects.toThrow(/cannot start \/no\/such\/client/);
  });
});
