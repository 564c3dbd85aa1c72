/**
 * `npm run check:package`: proves the package a user would install. Packs this clone
 * (`npm pack`), installs the tarball into an empty folder, and runs the installed
 * `waybill` there with no TypeScript loader: `--help`, `fixtures`, `serve --fixtures` (and its
 * `/docs`, `/docs/requirements` with the sandbox files the build read from the markers,
 * `/openapi.yaml`, `/health` and the guides at `/docs/guides`; `waybill wait` on it),
 * `conformance --provision` against that sandbox, and `mock`. Exit 0 only when all of it
 * works; each step prints one line with its time. `.ci/run` runs it after `npm test`, on
 * the npm cache `npm ci` filled (better-sqlite3 compiles from source where no prebuilt
 * binary can be fetched, which is most of the time it takes).
 *
 *   npm run check:package [-- --keep]     --keep leaves the folder for a look
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../mock/prism.ts';
import { PACKAGE_ROOT, PACKAGE_VERSION } from '../../spec/package-files.ts';

const run = promisify(execFile);
const keep = process.argv.includes('--keep');
const folder = mkdtempSync(join(tmpdir(), 'waybill-package-'));
const children: ChildProcess[] = [];

async function step<T>(title: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  process.stdout.write(`ok  ${title} (${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
  return result;
}

/** `waybill ARGS` as the installed package runs it: through npx, in the folder, without tsx. */
function waybill(args: string[], options: { timeout?: number } = {}) {
  const env = { ...process.env, WAYBILL_FROM_SOURCES: '' };
  return run('npx', ['--no-install', 'waybill', ...args], { cwd: folder, env, timeout: options.timeout ?? 120_000 });
}

/** Starts a long-running `waybill` command and resolves with the first stdout line matching `ready`. */
function start(args: string[], ready: RegExp): Promise<RegExpMatchArray> {
  const child = spawn('npx', ['--no-install', 'waybill', ...args], { cwd: folder, env: { ...process.env, WAYBILL_FROM_SOURCES: '' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`waybill ${args.join(' ')}: not ready after 60 s\n${out}${err}`)), 60_000);
    child.stderr!.on('data', (chunk) => (err += chunk));
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = out.match(ready);
      if (match !== null) {
        clearTimeout(timer);
        resolve(match);
      }
    });
    child.on('exit', (code) => reject(new Error(`waybill ${args.join(' ')} exited ${code}\n${out}${err}`)));
  });
}

async function expectAnswer(url: string, headers: Record<string, string>, status: number, type: RegExp): Promise<void> {
  const response = await fetch(url, { headers });
  await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  if (response.status !== status || !type.test(contentType)) throw new Error(`${url}: expected ${status} ${type}, got ${response.status} ${contentType}`);
}

/** Packages known to report home when installed or run; none may come with waybill. */
const TELEMETRY = new Set(['@scarf/scarf', 'scarf', 'insight', 'analytics-node', '@segment/analytics-node', 'posthog-node']);
/** The one package of the installed tree allowed an install script: the native SQLite driver builds itself. */
const INSTALL_SCRIPTS_ALLOWED = new Set(['better-sqlite3']);

/** Every package under `modules` (scoped ones and nested node_modules too): its name and the install scripts it declares. */
function installedPackages(modules: string): { name: string; scripts: string[] }[] {
  const found: { name: string; scripts: string[] }[] = [];
  const visit = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const path = join(folder, entry.name);
      if (entry.name.startsWith('@')) {
        visit(path);
        continue;
      }
      const manifest = join(path, 'package.json');
      if (existsSync(manifest)) {
        const { name, scripts = {} } = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; scripts?: Record<string, string> };
        found.push({ name, scripts: ['preinstall', 'install', 'postinstall'].filter((hook) => scripts[hook] !== undefined) });
      }
      if (existsSync(join(path, 'node_modules'))) visit(join(path, 'node_modules'));
    }
  };
  visit(modules);
  return found;
}

async function main(): Promise<void> {
  const tarball = await step('npm pack', async () => {
    const { stdout } = await run('npm', ['pack', '--silent', '--pack-destination', folder], { cwd: PACKAGE_ROOT });
    return join(folder, stdout.trim().split('\n').pop()!);
  });
  await step(`npm install ${tarball.slice(folder.length + 1)} into an empty folder`, async () => {
    await run('npm', ['init', '-y'], { cwd: folder });
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: folder, timeout: 15 * 60_000 });
  });
  await step('no telemetry package in the installed tree, and no install script but better-sqlite3\'s', async () => {
    const packages = installedPackages(join(folder, 'node_modules'));
    const telemetry = packages.filter(({ name }) => TELEMETRY.has(name)).map(({ name }) => name);
    if (telemetry.length > 0) throw new Error(`telemetry in a user's install: ${telemetry.join(', ')}`);
    const scripts = packages.filter(({ name, scripts: hooks }) => hooks.length > 0 && !INSTALL_SCRIPTS_ALLOWED.has(name)).map(({ name, scripts: hooks }) => `${name} (${hooks.join(', ')})`);
    if (scripts.length > 0) throw new Error(`install scripts in a user's install: ${scripts.join(', ')}`);
    if (packages.length < 100) throw new Error(`only ${packages.length} packages found under node_modules: the walk did not read the install`);
  });
  await step('waybill --help and --version', async () => {
    const { stdout: help } = await waybill(['--help']);
    if (!help.includes('Usage: waybill <command>')) throw new Error(`unexpected --help:\n${help}`);
    const { stdout: version } = await waybill(['--version']);
    if (version.trim() !== PACKAGE_VERSION) throw new Error(`--version printed ${version.trim()}, not ${PACKAGE_VERSION}`);
  });
  await step('waybill fixtures --seed 7 --orders 120 --out data.json', async () => {
    await waybill(['fixtures', '--seed', '7', '--orders', '120', '--out', 'data.json']);
    const dataset = JSON.parse(readFileSync(join(folder, 'data.json'), 'utf8')) as { orders: unknown[] };
    if (dataset.orders.length !== 120) throw new Error(`data.json has ${dataset.orders.length} orders, not 120`);
  });
  // A database file, so that the request log's writer thread (compiled, in dist/) is what records.
  const [banner, url] = await step('waybill serve --fixtures data.json --db sandbox.db answers', async () => {
    const match = await start(['serve', '--port', '0', '--db', 'sandbox.db', '--quiet', '--fixtures', 'data.json'], /listening on (http:\/\/\S+)[\s\S]*\n\n/);
    await expectAnswer(`${match[1]}/api/v1/integration/orders`, {}, 401, /^application\/problem\+json/);
    return match;
  });
  await step('its request log records a call made with a key of the dataset', async () => {
    const [, tenantId] = /into tenant (\S+):/.exec(banner!) ?? [];
    const [key] = /wbk_\S+/.exec(banner!) ?? [];
    if (tenantId === undefined || key === undefined) throw new Error(`no tenant or key in the banner:\n${banner}`);
    await expectAnswer(`${url}/api/v1/integration/whoami`, { 'X-Api-Key': key }, 200, /^application\/json/);
    const entries = JSON.parse(readFileSync(join(folder, '.waybill', 'admin-token.json'), 'utf8')) as { url: string; token: string }[];
    const token = entries.find((entry) => entry.url === url)?.token;
    for (let attempt = 0; ; attempt++) {
      const page = (await (await fetch(`${url}/sandbox/v1/tenants/${tenantId}/requests`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { items?: { operation?: string }[] };
      if (page.items?.some((item) => item.operation === 'whoami')) break;
      if (attempt === 50) throw new Error(`the request log never showed the whoami call: ${JSON.stringify(page).slice(0, 300)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  await step('its /docs, /docs/requirements, /openapi.yaml and /health answer from the installed package', async () => {
    await expectAnswer(`${url}/docs`, {}, 200, /^text\/html/);
    await expectAnswer(`${url}/docs/assets/swagger-ui-bundle.js`, {}, 200, /^text\/javascript/);
    await expectAnswer(`${url}/docs/decisions`, {}, 200, /^text\/html/);
    // The package ships no sources: the files of each rule come from what the build wrote.
    const trace = await (await fetch(`${url}/docs/requirements`)).text();
    const marked = /implemented by the reference sandbox \((\d+) marked places in (\d+) files\)/.exec(trace);
    if (marked === null || Number(marked[1]) === 0) throw new Error(`/docs/requirements names no marked sandbox code: ${trace.slice(0, 300)}`);
    await expectAnswer(`${url}/openapi.yaml`, {}, 200, /^application\/yaml/);
    const health = await (await fetch(`${url}/health`)).json();
    if (JSON.stringify(health) !== JSON.stringify({ status: 'ok', version: PACKAGE_VERSION })) throw new Error(`/health answered ${JSON.stringify(health)}`);
  });
  await step('its /docs/guides serve the README, the guides and their pictures from the installed package, and waybill wait waits for it', async () => {
    await expectAnswer(`${url}/docs/guides`, {}, 200, /^text\/html/);
    const vendor = await (await fetch(`${url}/docs/guides/vendor`)).text();
    if (!vendor.includes('<h1 id="vendor-guide">Vendor guide</h1>')) throw new Error(`/docs/guides/vendor: ${vendor.slice(0, 300)}`);
    const picture = /<img src="([^"]+)"/.exec(await (await fetch(`${url}/docs/guides/integrator`)).text())?.[1];
    if (picture === undefined) throw new Error('/docs/guides/integrator shows no picture');
    await expectAnswer(`${url}${picture}`, {}, 200, /^image\/png/);
    const { stdout } = await waybill(['wait', `${url}/health`, '--timeout', '10']);
    if (!stdout.includes('answered 200')) throw new Error(`waybill wait printed: ${stdout}`);
  });
  const counts = await step('waybill conformance --provision passes against it', async () => {
    await waybill(['conformance', '--target', url!, '--provision', '--out', 'reports'], { timeout: 180_000 });
    const report = JSON.parse(readFileSync(join(folder, 'reports', 'report.json'), 'utf8')) as { exitCode: number; counts: { checks: number; byOutcome: Record<string, number> } };
    if (report.exitCode !== 0 || report.counts.checks < 100) throw new Error(`exit code ${report.exitCode}: ${JSON.stringify(report.counts)}`);
    if (!readFileSync(join(folder, 'reports', 'report.html'), 'utf8').includes('id="requirement-trace"')) throw new Error('report.html has no requirement trace');
    return report.counts;
  });
  process.stdout.write(`    ${counts.checks} checks: ${JSON.stringify(counts.byOutcome)}\n`);
  for (const [file, command] of [['client.mjs', 'node'], ['client.py', 'python3']] as const) {
    await step(`waybill client-check passes the installed example client ${file}`, async () => {
      const example = join(folder, 'node_modules', 'waybill', 'conformance', 'client-check', 'example', file);
      const out = `client-check-${file}`;
      await waybill(['client-check', '--scenario', 'client.pay.answer-lost', '--scenario', 'client.sync.resumes', '--out', out, '--', command, example], { timeout: 120_000 });
      const report = JSON.parse(readFileSync(join(folder, out, 'report.json'), 'utf8')) as { exitCode: number; counts: { checks: number; byOutcome: Record<string, number> } };
      if (report.exitCode !== 0 || report.counts.checks !== 2 || report.counts.byOutcome['pass'] !== 2) throw new Error(`client-check ${file}: exit code ${report.exitCode}, ${JSON.stringify(report.counts)}`);
    });
  }
  await step('waybill mock answers an example', async () => {
    const port = await freePort();
    await start(['mock', '--port', String(port)], /listening on (http:\/\/\S+)/);
    await expectAnswer(`http://127.0.0.1:${port}/api/v1/integration/orders`, { 'X-Api-Key': 'any' }, 200, /^application\/json/);
  });
}

try {
  await main();
  process.stdout.write(`the packed waybill ${PACKAGE_VERSION} installs and runs${keep ? ` (kept in ${folder})` : ''}\n`);
} catch (error) {
  process.stderr.write(`check:package failed: ${(error as Error).message}\n`);
  process.exitCode = 1;
} finally {
  // npx runs waybill in a child of its own: stop the whole group.
  for (const child of children) if (child.pid !== undefined && child.exitCode === null) try { process.kill(-child.pid, 'SIGTERM'); } catch {}
  if (!keep) setTimeout(() => rmSync(folder, { recursive: true, force: true }), 500);
}
