/**
 * `npm test`: the typecheck, the build and the spec's lint, side by side (each is one process on one
 * core), then `vitest run` — the fast tier, or the full gate under `WAYBILL_TEST_TIER=all`
 * (`npm run test:all`, `.ci/run`). With arguments, `npm test -- ARGS` is `vitest run ARGS` alone: a
 * contributor running one file or one test (`npm test -- server/orders/writes.test.ts -t 'a payment'`)
 * waits for that test only.
 */
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const vitest = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));

/** Runs `npm run <script>` with its output held back; resolves to its exit code and that output. */
function npmRun(script: string): Promise<{ script: string; code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ script, code: 1, output: String(error) }));
    child.on('close', (code) => resolve({ script, code: code ?? 1, output }));
  });
}

/** The typecheck, the build and the lint at once; prints each as it ends (its output when it failed); answers whether all passed. */
async function prepare(): Promise<boolean> {
  const began = Date.now();
  const results = await Promise.all(
    ['typecheck', 'build', 'lint:spec'].map((script) =>
      npmRun(script).then((result) => {
        console.error(`npm test: ${script} ${result.code === 0 ? 'passed' : `failed (exit ${result.code})`} after ${((Date.now() - began) / 1000).toFixed(1)} s`);
        if (result.code !== 0) console.error(result.output);
        return result;
      }),
    ),
  );
  return results.every((result) => result.code === 0);
}

const args = process.argv.slice(2);
if (args.length > 0) console.error('npm test with arguments: vitest run alone (npm test without arguments typechecks, builds and lints the spec first)');
else if (!(await prepare())) process.exit(1);
process.exitCode = spawnSync(process.execPath, [vitest, 'run', ...args], { cwd: root, stdio: 'inherit' }).status ?? 1;
