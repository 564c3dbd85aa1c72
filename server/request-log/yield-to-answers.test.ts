/** The writer thread's priority follows the batches' waits (D48). */
import { describe, expect, it } from 'vitest';
import { CATCH_UP_MS, yieldToAnswers } from './yield-to-answers.ts';

describe('yieldToAnswers', () => {
  it('starts at the lowest priority, takes the normal one while batches wait too long, and gives it back once caught up', () => {
    const set: number[] = [];
    const priority = yieldToAnswers((value) => set.push(value));
    priority.waited(5);
    priority.waited(CATCH_UP_MS + 1);
    priority.waited(60);
    priority.waited(CATCH_UP_MS + 50);
    priority.waited(20);
    priority.waited(3);
    expect(set).toEqual([19, 0, 19]);
  });

  it('keeps the priority it has when the system refuses a change, and does not ask again', () => {
    const asked: number[] = [];
    const priority = yieldToAnswers((value) => {
      asked.push(value);
      if (value === 0) throw Object.assign(new Error('EACCES'), { code: 'EACCES' });
    });
    for (let n = 0; n < 3; n++) priority.waited(CATCH_UP_MS * 2);
    expect(asked).toEqual([19, 0]);
  });

  it('lowers the calling thread only: a worker thread that yields leaves the process at its priority', async () => {
    const { Worker } = await import('node:worker_threads');
    const { getPriority } = await import('node:os');
    const before = getPriority(0);
    const worker = new Worker(`const { setPriority, getPriority } = require('node:os'); setPriority(0, 19); require('node:worker_threads').parentPort.postMessage(getPriority(0));`, { eval: true });
    const inWorker = await new Promise((resolve) => worker.once('message', resolve));
    await worker.terminate();
    expect([inWorker, getPriority(0)]).toEqual([19, before]);
  });
});
