/**
 * The CPU the bench reads from /proc: a process's threads and children all count in its
 * tree's CPU, and only the main threads in its event loops' (issue 42: CPU per request, of
 * the whole process and of the event loop alone). Linux only, as the bench is.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { eventLoopCpuSeconds, treeCpuSeconds } from './machine.ts';

/**
 * Work of a fixed size (about 0.3 s of CPU here), whatever share of a core the machine gives it,
 * once told to; prints `ready` before and `done` after, then stays until killed (a process that
 * ended is no longer in its parent's event loops).
 */
const WORK = "process.stdin.once('data', () => { let x = 0; for (let i = 0; i < 3e8; i++) x += i % 7; process.stdout.write(`done ${x}\\n`); setTimeout(() => {}, 30000); }); process.stdout.write('ready\\n');";

/** A node process that does `WORK` on `go` in its main thread, in a worker thread, or in a child process of its own. */
function worker(where: 'main' | 'worker' | 'child'): ChildProcess {
  const script =
    where === 'main'
      ? WORK
      : where === 'worker'
        ? `const { Worker } = require('node:worker_threads'); const w = new Worker(${JSON.stringify(WORK.replace("process.stdin.once('data', () => {", 'require("node:worker_threads").parentPort.once("message", () => {'))}, { eval: true, stdout: false }); process.stdin.once('data', () => w.postMessage('go')); w.once('exit', () => process.exit(0));`
        : `require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(WORK)}], { stdio: 'inherit' }).once('exit', () => process.exit(0));`;
  return spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'], detached: true });
}

/** Resolves once `child` printed `word` (or ended). */
const printed = (child: ChildProcess, word: string) =>
  new Promise<void>((resolve) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes(word)) {
        child.stdout!.off('data', onData);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', () => resolve());
  });

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Ended already.
    }
  }
});

describe.runIf(existsSync('/proc/self/stat'))('CPU from /proc', () => {
  it.each([
    ['main', 'in both'],
    ['worker', "in the process's, not its event loop's"],
    ['child', "in both (a child's main thread is an event loop of the server: a cluster worker, the mock's Prism)"],
  ] as const)('counts CPU spent in a %s thread %s', async (where, _what) => {
    const process_ = worker(where);
    started.push(process_);
    // Started and waiting for `go` (its worker or child too): what it spent starting is before the first reading.
    await printed(process_, 'ready');
    const finished = printed(process_, 'done');
    const pid = process_.pid!;
    const [tree0, loop0] = [treeCpuSeconds(pid)!, eventLoopCpuSeconds(pid)!];
    process_.stdin!.write('go\n');
    await finished;
    // The process stays until killed: its tree, its children included, is still there to read.
    const [tree1, loop1] = [treeCpuSeconds(pid), eventLoopCpuSeconds(pid)];
    expect(tree1, 'the process is still there').not.toBeNull();
    expect(tree1! - tree0).toBeGreaterThan(0.1);
    if (where === 'worker') expect(loop1! - loop0).toBeLessThan(0.05);
    else expect(loop1! - loop0).toBeGreaterThan(0.1);
  });

  it('answers null for a process that is not there', () => {
    expect(treeCpuSeconds(2 ** 22 + 1)).toBeNull();
    expect(eventLoopCpuSeconds(2 ** 22 + 1)).toBeNull();
  });
});
