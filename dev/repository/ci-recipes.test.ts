/**
 * The CI recipes run (issue 38): examples/ci/github-actions.yml is a valid workflow by the
 * workflow schema (@action-validator/core, which also fails a broken copy), examples/ci/gitlab-ci.yml
 * has the shape the recipe relies on, docs/ci.md shows both byte for byte, and every job of both
 * runs its shell (ci-recipes.ts) in a folder laid out as a client project that installed
 * waybill: the vendor's jobs against a sandbox this test starts as the deployment, with a
 * profile provisioned there as its secret; the integrator's jobs start their own sandbox in the
 * background (on a free port given as PORT, for 127.0.0.1:4000), run the client's own test with
 * the key a step made, and client-check. Each job must pass every step and leave the reports its
 * artifacts name, JUnit included. `npx waybill` is this clone's bin, run from its sources; the
 * packed package itself is `npm run check:package`'s to prove.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateWorkflow } from '@action-validator/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { freePort } from '../../mock/prism.ts';
import { PACKAGE_ROOT } from '../../spec/package-files.ts';
import { memoryStore, type RunningServer, startServer, TEST_ADMIN_TOKEN } from '../testing/sandbox.ts';
import { githubJob, gitlabJob, type RecipeJob, stepResults } from './ci-recipes.ts';
import { projectFolder, withoutWaybillVariables } from './doc-session.ts';

const GITHUB = readFileSync(join(PACKAGE_ROOT, 'examples/ci/github-actions.yml'), 'utf8');
const GITLAB = readFileSync(join(PACKAGE_ROOT, 'examples/ci/gitlab-ci.yml'), 'utf8');
const GUIDE = readFileSync(join(PACKAGE_ROOT, 'docs/ci.md'), 'utf8');

/** The client project's own test: the example client syncs the orders of the key a CI step made, and whoami answers for it. */
const CLIENT_TEST = `import { spawnSync } from 'node:child_process';
const whoami = await fetch(new URL('/api/v1/integration/whoami', process.env.WAYBILL_BASE_URL), { headers: { 'X-Api-Key': process.env.WAYBILL_API_KEY } });
if (whoami.status !== 200) throw new Error(\`whoami answered \${whoami.status}\`);
const sync = spawnSync(process.execPath, ['client.mjs'], { env: { ...process.env, WAYBILL_TASK: 'sync-orders', WAYBILL_STATE_FILE: 'sync-state.json' }, stdio: 'inherit' });
process.exitCode = sync.status ?? 1;
console.log('client test: ok');
`;

let deployment: RunningServer;
const folders: string[] = [];

beforeAll(async () => {
  deployment = await startServer(await memoryStore(), { adminToken: TEST_ADMIN_TOKEN });
});

/** A fresh conformance profile of the deployment, as a vendor keeps it in a secret (a full run uses up some of a profile's pools). */
async function profileSecret(): Promise<string> {
  const provisioned = await fetch(`${deployment.url}/sandbox/v1/profiles`, { method: 'POST', headers: { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
  expect(provisioned.status).toBe(201);
  return provisioned.text();
}
afterAll(async () => {
  await deployment?.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A client project that installed waybill: the example client, a test of its own, `npm test` running it. */
function clientProject(): string {
  const folder = projectFolder('waybill-ci-');
  folders.push(folder);
  copyFileSync(join(PACKAGE_ROOT, 'conformance/client-check/example/client.mjs'), join(folder, 'client.mjs'));
  writeFileSync(join(folder, 'client.test.mjs'), CLIENT_TEST);
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'acme-client', private: true, type: 'module', scripts: { test: 'node client.test.mjs' } }, null, 2));
  return folder;
}

/** Runs a job's script in `folder` as a process group of its own, ending whatever it left in the background; resolves to its output and exit code. */
function runJob(job: RecipeJob, folder: string, env: Record<string, string>): Promise<{ output: string; status: number | null }> {
  writeFileSync(join(folder, 'job.sh'), [
    'exec 2>&1',
    'npx() { if [ "$1" = waybill ]; then shift; "$JOB_NODE" "$JOB_BIN" "$@"; else echo "npx $1: not run here"; return 127; fi; }',
    job.script,
  ].join('\n'));
  const child = spawn('bash', ['job.sh'], {
    cwd: folder,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...withoutWaybillVariables(), ...env, HOME: join(folder, 'home'), JOB_NODE: process.execPath, JOB_BIN: join(PACKAGE_ROOT, 'bin', 'waybill.js'), npm_config_update_notifier: 'false', NO_COLOR: '1' },
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) =>
    child.once('close', (status) => {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // nothing was left running
      }
      resolve({ output, status });
    }),
  );
}

/** Expects every step of `job` to have run and passed, naming the first that did not. */
function expectEveryStepPassed(job: RecipeJob, result: { output: string; status: number | null }): void {
  const results = stepResults(result.output);
  job.steps.forEach((step, index) => {
    if (step.skipped !== undefined) return;
    const ran = results.get(index);
    expect(ran, `step "${step.name}" never ended (job exit ${result.status}):\n${result.output.slice(-3000)}`).toBeDefined();
    expect(ran!.exitCode, `step "${step.name}":\n${ran!.output.slice(-3000)}`).toBe(0);
  });
  expect(result.status, result.output.slice(-2000)).toBe(0);
}

/** Expects `folder` to hold each artifact path and the JUnit report, with no failure in it. */
function expectArtifacts(folder: string, paths: string[], junit: string): void {
  for (const path of paths) expect(existsSync(join(folder, path)), `artifact ${path}`).toBe(true);
  const xml = readFileSync(join(folder, junit), 'utf8');
  expect(xml).toMatch(/<testsuites[\s>]/);
  expect(xml).not.toMatch(/<failure[\s>]/);
}

describe('the CI recipes, as files', () => {
  it('docs/ci.md shows both, byte for byte', () => {
    const blocks = [...GUIDE.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1]);
    expect(blocks).toEqual([GITHUB, GITLAB]);
  });

  it('the GitHub workflow is valid by the workflow schema, and the validator fails a broken copy', () => {
    expect(validateWorkflow(GITHUB).errors).toEqual([]);
    expect(validateWorkflow(GITHUB.replace('runs-on:', 'runs_on:')).errors.length).toBeGreaterThan(0);
    expect(Object.keys((parse(GITHUB) as { jobs: object }).jobs)).toEqual(['conformance', 'client']);
  });

  it('the GitLab file gives each job a stage, script lines, and its JUnit report among the artifacts it keeps', () => {
    const gitlab = parse(GITLAB) as Record<string, any>;
    for (const name of ['conformance', 'client']) {
      const job = gitlab[name];
      expect(gitlab['stages']).toContain(job.stage);
      // A line with `: ` in it that is not quoted is a YAML mapping, which GitLab refuses.
      expect(job.script.filter((line: unknown) => typeof line !== 'string')).toEqual([]);
      expect(job.artifacts.when).toBe('always');
      expect(job.artifacts.paths.some((path: string) => job.artifacts.reports.junit.startsWith(path))).toBe(true);
    }
  });
});

describe('the CI recipes, run', () => {
  it("GitHub Actions, the vendor's job: waits for the deployment, runs the suite with the profile secret, leaves the reports", async () => {
    const folder = clientProject();
    const job = githubJob(GITHUB, 'conformance', { WAYBILL_TARGET: deployment.url, WAYBILL_PROFILE: await profileSecret() }, (value) => value);
    const result = await runJob(job, folder, {});
    expectEveryStepPassed(job, result);
    expectArtifacts(folder, ['reports/conformance/'], 'reports/conformance/junit.xml');
    expect(result.output).toMatch(/PASS — no failure that counts \(exit 0/);
  }, 180_000);

  it("GitHub Actions, the integrator's job: the sandbox in the background, the client's own test with the key a step made, client-check", async () => {
    const folder = clientProject();
    const port = await freePort();
    const job = githubJob(GITHUB, 'client', {}, (value) => value.replaceAll('127.0.0.1:4000', `127.0.0.1:${port}`));
    const result = await runJob(job, folder, { PORT: String(port) });
    expectEveryStepPassed(job, result);
    expectArtifacts(folder, ['reports/client-check/', 'sandbox.log'], 'reports/client-check/junit.xml');
    expect(result.output).toContain('client test: ok');
    expect(readFileSync(join(folder, 'sandbox.log'), 'utf8')).toContain(`listening on http://127.0.0.1:${port}`);
  }, 180_000);

  it("GitLab CI, the vendor's job", async () => {
    const folder = clientProject();
    const job = gitlabJob(GITLAB, 'conformance', (value) => value);
    const result = await runJob(job, folder, { WAYBILL_TARGET: deployment.url, WAYBILL_PROFILE: await profileSecret() });
    expectEveryStepPassed(job, result);
    expectArtifacts(folder, ['reports/conformance/'], 'reports/conformance/junit.xml');
  }, 180_000);

  it("GitLab CI, the integrator's job", async () => {
    const folder = clientProject();
    const port = await freePort();
    const job = gitlabJob(GITLAB, 'client', (value) => value.replaceAll('127.0.0.1:4000', `127.0.0.1:${port}`));
    const result = await runJob(job, folder, { PORT: String(port) });
    expectEveryStepPassed(job, result);
    expectArtifacts(folder, ['reports/client-check/', 'sandbox.log'], 'reports/client-check/junit.xml');
    expect(result.output).toContain('client test: ok');
  }, 180_000);

  it('leaves out only the actions and the install, each with its reason', () => {
    const skipped = [githubJob(GITHUB, 'client', {}, (value) => value), gitlabJob(GITLAB, 'client', (value) => value)].flatMap((job) => job.steps.filter((step) => step.skipped));
    expect(skipped.map((step) => step.name)).toEqual(['actions/checkout@v4', 'actions/setup-node@v4', 'npm ci', 'Keep the reports and the sandbox\'s log', 'npm ci']);
  });
});
