/**
 * The time tests spend starting what they share (sandboxes, PostgreSQL clusters and databases,
 * Chromium, Prism), recorded for `npm run test:times` (dev/testing/test-times.ts): where
 * `WAYBILL_TEST_TIMES` names a folder, each start is a line of `starts-<pid>.jsonl` in it, with
 * the test file that asked for it. Elsewhere (a plain `npm test`, the fuzz campaign, the bench)
 * it records nothing and costs nothing.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

/** What a test can start, as test:times groups it. */
export type StartKind = 'sandbox' | 'serve process' | 'postgres cluster' | 'postgres database' | 'chromium' | 'prism' | 'suite-proof reference';

/** One start as recorded: what, for which test file (relative to the repository) and project, and how long it took. */
export interface StartRecord {
  kind: StartKind;
  file: string | null;
  project: string | null;
  ms: number;
}

/** The test file and project running in this worker, from vitest's worker state (null outside vitest). */
function runningFile(): { file: string | null; project: string | null } {
  const worker = (globalThis as { __vitest_worker__?: { filepath?: string; ctx?: { projectName?: string } } }).__vitest_worker__;
  const root = process.cwd();
  const path = worker?.filepath ?? null;
  return { file: path === null ? null : path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path, project: worker?.ctx?.projectName ?? null };
}

/** Runs `start`, and when this run collects times, records how long it took under `kind`. */
export async function timedStart<T>(kind: StartKind, start: () => Promise<T>): Promise<T> {
  const folder = process.env['WAYBILL_TEST_TIMES'];
  if (!folder) return start();
  const began = performance.now();
  try {
    return await start();
  } finally {
    const record: StartRecord = { kind, ...runningFile(), ms: Math.round(performance.now() - began) };
    appendFileSync(join(folder, `starts-${process.pid}.jsonl`), `${JSON.stringify(record)}\n`);
  }
}
