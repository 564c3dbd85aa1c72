/**
 * The assertions of the suite-proof matrix, shared by its slices: a broken variant fails exactly its
 * checks, each MUST or SHOULD one verifying a requirement it breaks, and every requirement it
 * breaks caught; an alternative-decision variant fails only DECISION checks, and only with --strict.
 */
import { expect } from 'vitest';
import { failsRun } from '../../conformance/engine/exit-code.ts';
import { runVerdict } from '../../conformance/engine/verdict.ts';
import { errored, failed, type AlternativeVariant, type BrokenVariant, runAgainst } from './harness.ts';

/** Runs `variant` and holds it to its lists. */
export async function expectBroken(variant: BrokenVariant): Promise<void> {
  const report = await runAgainst(variant);
  expect(errored(report)).toEqual([]);
  const maybe = variant.mayFail ?? {};
  expect(failed(report).filter((id) => !(id in maybe))).toEqual([...variant.fails, ...Object.keys(variant.alsoFails ?? {})].sort());
  const failing = report.results.filter((result) => result.outcome === 'fail');
  for (const result of failing.filter((candidate) => candidate.level !== 'DECISION' && !(candidate.id in (variant.alsoFails ?? {})) && !(candidate.id in maybe))) {
    expect(result.verifies.filter((id) => variant.breaks.includes(id)), `${result.id} fails but verifies none of ${variant.breaks.join(', ')}`).not.toEqual([]);
  }
  for (const id of variant.breaks) {
    expect(failing.some((result) => result.verifies.includes(id) && variant.fails.includes(result.id)), `no check of fails verifies ${id}`).toBe(true);
  }
  expect(report.exitCode).toBe(1);
}

/** Runs `variant` under --strict and holds it to its list; without --strict the same results pass. */
export async function expectAlternative(variant: AlternativeVariant): Promise<void> {
  const report = await runAgainst(variant, { strict: true });
  expect(errored(report)).toEqual([]);
  const maybe = Object.keys(variant.mayFailStrict ?? {});
  expect(failed(report).filter((id) => !maybe.includes(id))).toEqual([...variant.failsStrict].sort());
  const failing = report.results.filter((result) => result.outcome === 'fail');
  for (const result of failing) {
    expect(result.level, `${result.id} fails a seed-valid target`).toBe('DECISION');
    expect(result.verifies.filter((id) => variant.decides.includes(id)), `${result.id} fails but verifies none of ${variant.decides.join(', ')}`).not.toEqual([]);
  }
  expect(report.exitCode).toBe(failing.length > 0 ? 1 : 0);
  const lenient = report.results.map((result) => ({ ...result, failsRun: failsRun(result.level, result.outcome, false) }));
  expect(runVerdict('waybill-conformance', lenient).exitCode).toBe(0);
}
