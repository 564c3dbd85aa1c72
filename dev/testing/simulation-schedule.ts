/**
 * A simulation's schedule replayed from its seed (D53), for the tests that hold a running
 * simulation to it across processes (D84): each due time makes one change, none twice.
 */
import { expect } from 'vitest';
import { gapMs, generator, timelineStart } from '../../server/simulation/draws.ts';

/** A simulation as the control plane answers it (the members these tests read). */
export interface SimulationView {
  running: boolean;
  changes: number;
  startedAtUtc: string;
  nextChangeAtUtc: string | null;
}

/** The due times of a simulation's first `count` changes, from its start, seed and rate (the runner's draws, replayed). */
export function schedule(startedAt: number, seed: number, changesPerMinute: number, count: number): number[] {
  const draw = generator(timelineStart(seed));
  const times: number[] = [];
  for (let at = startedAt; times.length < count; ) times.push((at += gapMs(draw, changesPerMinute)));
  return times;
}

/** Holds a running `view` to the seed's schedule: `changes` made, and the next one due at the schedule's next time, so each due time made one change. */
export function expectOnSchedule(view: SimulationView, seed: number, changesPerMinute: number): void {
  const times = schedule(Date.parse(view.startedAtUtc), seed, changesPerMinute, view.changes + 1);
  expect(view.nextChangeAtUtc === null ? null : Date.parse(view.nextChangeAtUtc), `${view.changes} changes`).toBe(times[view.changes]);
}
