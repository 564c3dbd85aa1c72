/**
 * `npm test`: the typecheck, the build and the spec's lint, then `vitest run` — the fast tier, or
 * the full gate under `WAYBILL_TEST_TIER=all` (`npm run test:all`, `.ci/run`). With arguments,
 * `npm test -- ARGS` is `vitest run ARGS` alone: a contributor running one file or one test
 * (`npm test -- server/orders/writes.test.ts -t 'a payment'`) waits for that test only.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Runs `command args…` in the repository, its output on this terminal; answers its exit code. */
function run(command: string, args: readonly string[]): number {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

const args = process.argv.slice(2);
if (args.length > 0) {
  console.error('npm test with arguments: vitest run alone (npm test without arguments typechecks, builds and lints the spec first)');
} else {
  for (const script of ['typecheck', 'build', 'lint:spec']) {
    const code = run('npm', ['run', script]);
    if (code !== 0) process.exit(code);
  }
}
process.exitCode = run(process.execPath, [fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url)), 'run', ...args]);
