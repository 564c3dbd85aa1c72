/**
 * A README that cannot drift (issue 26): its shell examples run, in README order and in one bash
 * session, against a sandbox this test starts (`waybill serve` on a free 127.0.0.1 port, in a
 * folder of its own, the README's `127.0.0.1:4000` replaced by that port), and every output and
 * figure the README quotes is compared with what they print. A changed output fails here until
 * the README follows. What is not run is listed below with why, and each entry must still name a
 * command of the README.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../spec/package-files.ts';
import { oneLine, quotedOutputs, quoteHolds, readmeCommands } from './readme-examples.ts';

const README = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');
const BIN = join(PACKAGE_ROOT, 'bin', 'waybill.js');
const ADDRESS = '127.0.0.1:4000';
const commands = readmeCommands(README);

/** The README's commands this test does not run, and why; every other one runs. */
const notRun: readonly { pattern: RegExp; why: string }[] = [
  { pattern: /^npm install\b/, why: 'installs from the npm registry (the network) into this clone or the machine' },
  { pattern: /^(WAYBILL_ADMIN_TOKEN=sandbox-admin )?npm start\b|^npx waybill serve$/, why: 'the sandbox itself: this test starts it as `WAYBILL_ADMIN_TOKEN=sandbox-admin waybill serve` on a free port in its folder' },
  { pattern: /^npx waybill serve --fixtures /, why: 'a second long-running sandbox; server/start/serve.test.ts serves that dataset' },
  { pattern: /^createdb waybill$|^npx waybill serve --db postgres:\/\//, why: "a PostgreSQL server of the reader's own; server/start/serve-postgres.test.ts serves a database of a throwaway cluster the same way" },
  { pattern: /^npx waybill serve --workers /, why: 'a long-running sandbox of several processes on a PostgreSQL server; server/start/serve-workers-postgres.test.ts runs it on a throwaway cluster' },
  { pattern: /^npm test$/, why: 'the whole suite, this test among it' },
  { pattern: /^npm pack$/, why: 'builds and packs the clone (npm run check:package does it); the file name it writes is checked from package.json below' },
  { pattern: /^curl -s -H 'X-Api-Key: wbk_…'/, why: "its key is a placeholder: the banner's own curl line is checked against it, and run" },
  { pattern: /\/requests\/42"/, why: 'an entry id for illustration, which a new tenant does not have' },
  { pattern: /^curl -sN /, why: 'a Server-Sent Events stream, which never ends' },
  { pattern: /^npx waybill mock$/, why: 'a long-running Prism mock (mock/cli.test.ts starts it)' },
  { pattern: /--target https:\/\/api\.acme\.example /, why: "a vendor's target with a hand-written profile; conformance/certify/certify.test.ts certifies the reference the same way" },
  { pattern: /^npx waybill verify reports\/acme\//, why: 'verifies the bundle of the line above' },
  { pattern: /^npx waybill client-check -- /, why: 'every scenario, some waiting minutes (client.sync.rate-limit gives a run 120 s); the client-check tests run them, and the count of scenarios is checked from --help below' },
  { pattern: /^npm run fuzz\b/, why: 'the fuzz campaign; dev/fuzz/fuzz.test.ts runs 10,000 cases of it' },
  { pattern: /^npm run bench\b|^npx tsx dev\/bench\//, why: 'benchmarks: minutes on an idle machine, never a test' },
];
const run = commands.filter((command) => !notRun.some(({ pattern }) => pattern.test(command.key)));

/** Calls answered other than 2xx on purpose, with the status each gets. */
const expectedStatus: readonly { pattern: RegExp; status: number }[] = [
  { pattern: /'Prefer: fault=503'/, status: 503 },
  { pattern: /"by":"25 hours"/, status: 400 },
];

const folder = mkdtempSync(join(tmpdir(), 'waybill-readme-'));
const home = join(folder, 'home');
let sandbox: ChildProcess | undefined;
let port = 0;
let banner = '';
let health = '';
const packageJson = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
/** What each command run printed (stdout and stderr as a terminal shows them), its exit code and HTTP statuses, by index in `run`. */
const results: { output: string; exitCode: number; statuses: number[] }[] = [];

/** Starts the sandbox; resolves once its banner has printed the curl line to try. */
function startSandbox(): Promise<void> {
  const env = { ...withoutWaybillVariables(), WAYBILL_ADMIN_TOKEN: 'sandbox-admin' };
  sandbox = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--host', '127.0.0.1', '--quiet'], { cwd: folder, env, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    sandbox!.stderr!.on('data', (chunk) => (banner += String(chunk)));
    sandbox!.stdout!.on('data', (chunk) => {
      banner += String(chunk);
      const listening = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(banner);
      if (listening && /try it:\n\s+curl .*\n/.test(banner)) resolve(void (port = Number(listening[1])));
    });
    sandbox!.once('exit', (code) => reject(new Error(`waybill serve exited (${code}) before its banner: ${banner}`)));
  });
}

/** This process's environment without waybill's own variables, but for running the sources as every test does. */
function withoutWaybillVariables(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('WAYBILL_') || name === 'WAYBILL_FROM_SOURCES'));
}

/** A README text with its address replaced by the sandbox's. */
const here = (text: string) => text.replaceAll(ADDRESS, `127.0.0.1:${port}`);
/** An output as the README would quote it: the sandbox's address as the README's, the test's home as `~`. */
const asQuoted = (text: string) => text.replaceAll(`127.0.0.1:${port}`, ADDRESS).replaceAll(home, '~');

/** The bash script: `npx waybill` runs this clone's bin, curl reports each answer's status, each command between markers. */
function script(): string {
  const lines = [
    'exec 2>&1',
    'npx() { if [ "$1" = waybill ]; then shift; "$README_NODE" "$README_BIN" "$@"; else echo "npx $1: not run here"; return 127; fi; }',
    `curl() { command curl --max-time 60 -w '%{stderr}\\n@@http %{http_code}@@\\n' "$@"; }`,
  ];
  for (const [index, command] of run.entries()) lines.push(`printf '\\n@@begin ${index}@@\\n'`, here(command.text), `printf '\\n@@end ${index} %d@@\\n' "$?"`);
  return `${lines.join('\n')}\n`;
}

beforeAll(async () => {
  // The examples are bash and curl: without them the README cannot be held to its word, which is a failure, not a skip.
  for (const tool of ['bash', 'curl']) if (spawnSync(tool, ['--version']).status !== 0) throw new Error(`the README's examples need ${tool}, which this machine lacks`);
  mkdirSync(home);
  await startSandbox();
  health = await (await fetch(`http://127.0.0.1:${port}/health`)).text();
  writeFileSync(join(folder, 'readme.sh'), script());
  const env = { ...withoutWaybillVariables(), HOME: home, README_NODE: process.execPath, README_BIN: BIN, NO_COLOR: '1' };
  const { stdout, status } = spawnSync('bash', ['readme.sh'], { cwd: folder, env, encoding: 'utf8', timeout: 600_000, maxBuffer: 64 * 1024 * 1024 });
  if (status !== 0) throw new Error(`the README's commands did not run to their end (bash exit ${status}): ${stdout.slice(-2000)}`);
  for (const match of stdout.matchAll(/\n@@begin (\d+)@@\n([\s\S]*?)\n@@end \1 (\d+)@@\n/g)) {
    const statuses = [...match[2]!.matchAll(/@@http (\d+)@@/g)].map((found) => Number(found[1]));
    results[Number(match[1])] = { output: asQuoted(match[2]!.replace(/\n?@@http \d+@@\n?/g, '\n')).trim(), exitCode: Number(match[3]), statuses };
  }
}, 900_000);

afterAll(async () => {
  if (sandbox?.exitCode === null) await new Promise((done) => (sandbox!.once('exit', done), sandbox!.kill('SIGTERM')));
  rmSync(folder, { recursive: true, force: true });
});

/** What `command` (a key of the README's commands) printed when the session ran it. */
function outputOf(key: string): string {
  const index = run.findIndex((command) => command.key === key);
  if (index === -1) throw new Error(`no command of the README that this test runs reads ${key}`);
  return results[index]?.output ?? '';
}

/**
 * A failed command's output with the conformance findings (`✗ check …` and the lines indented
 * under it) put first, so a log that keeps only the start of a long message still names them.
 */
function failuresFirst(output: string): string {
  const lines = output.split('\n');
  const findings = lines.flatMap((line, index) => {
    if (!line.startsWith('✗ ')) return [];
    const end = lines.findIndex((next, at) => at > index && !next.startsWith(' '));
    return lines.slice(index, end === -1 ? undefined : end);
  });
  return findings.length === 0 ? output : `${findings.join('\n')}\n\n— the whole output —\n${output}`;
}

describe('README: the commands', () => {
  it.each(notRun.map(({ pattern, why }) => [String(pattern), why, pattern] as const))('not run: %s (%s), which still names a command of the README', (_name, _why, pattern) => {
    expect(commands.some((command) => pattern.test(command.key))).toBe(true);
  });

  it.each(run.map((command, index) => [command.key.slice(0, 140), index, command] as const))('runs %s', (_name, index, command) => {
    const result = results[index];
    expect(result, 'the command never ran: the session stopped before it').toBeDefined();
    expect(result!.exitCode, failuresFirst(result!.output)).toBe(0);
    const expected = expectedStatus.find(({ pattern }) => pattern.test(command.key))?.status;
    const wrong = result!.statuses.filter((status) => (expected === undefined ? status < 200 || status > 299 : status !== expected));
    expect(wrong, `answered ${result!.statuses.join(', ')}, expected ${expected ?? '2xx'}: ${result!.output.slice(0, 600)}`).toEqual([]);
  });
});

describe('README: the outputs it quotes', () => {
  const quotes = [
    ...commands.filter((command) => command.quoted.length > 0).map((command) => ({ command: command.key, quote: command.quoted, line: command.line })),
    ...quotedOutputs(README),
  ];

  it.each(quotes.map((quoted) => [quoted.line, quoted.command.slice(0, 100), quoted] as const))('line %i: what `%s` prints', (_line, _name, { command, quote }) => {
    expect(run.some((candidate) => candidate.key === command), 'a quoted output of a command this test does not run').toBe(true);
    const output = outputOf(command);
    expect(quoteHolds(output, quote), `README quotes:\n${quote.join('\n')}\nthe command printed:\n${output.slice(0, 3000)}`).toBe(true);
  });

  it("the banner prints the README's curl line, with the demo tenant's key, and it reads two orders", () => {
    const readme = commands.find((command) => command.key.startsWith("curl -s -H 'X-Api-Key: wbk_…'"))!;
    const line = asQuoted(banner).split('\n').find((candidate) => quoteHolds(candidate, [readme.key]));
    expect(line, banner).toBeDefined();
    const answer = spawnSync('bash', ['-c', here(line!.trim())], { encoding: 'utf8', timeout: 60_000 });
    expect((JSON.parse(answer.stdout) as { items: unknown[] }).items).toHaveLength(2);
  });
});

describe('README: the figures it quotes', () => {
  const conformance = 'npx waybill conformance --target http://127.0.0.1:4000 --provision';
  /** The first group of `pattern` in `text`; a failure names what was looked for. */
  const figure = (text: string, pattern: RegExp) => {
    const found = pattern.exec(text);
    if (found === null) throw new Error(`nothing matches ${pattern}`);
    return found[1]!;
  };
  const figures: readonly [string, RegExp, () => string][] = [
    ["the catalog's size", /the (\d+)-code error\s+catalog/, () => figure(outputOf(conformance), /catalog coverage \((\d+) codes\)/)],
    ['the catalog codes a run lists', /lists all (\d+) catalog codes/, () => figure(outputOf(conformance), /catalog coverage \((\d+) codes\)/)],
    ["the demo tenant's orders", /a demo tenant \((\d+) orders,/, () => figure(banner, /demo tenant \S+: (\d+) orders, \d+ trips/)],
    ["the demo tenant's trips", /a demo tenant \(\d+ orders,\s+(\d+) trips/, () => figure(banner, /demo tenant \S+: \d+ orders, (\d+) trips/)],
    ['the checks of a full run', /\((\d+) checks: \d+ passed/, () => figure(outputOf(conformance), /\((\d+) checks, seed/)],
    ['the checks a full run passes', /\(\d+ checks: (\d+) passed/, () => figure(outputOf(conformance), /\((\d+) checks, seed/)],
    ["client-check's scenarios", /# (\d+) scenarios/, scenarioCount],
    ['the ids --provision gives each pool', /`--provision` gives (\d+) each/, provisionedPoolSize],
    ['the answer of GET /health', /`GET \/health` answers `([^`]+)`/, () => health],
    ['the file npm pack writes', /npm pack\s+# writes (\S+)/, () => `${packageJson.name}-${packageJson.version}.tgz`],
  ];

  it.each(figures)('%s', (_name, readme, actual) => {
    expect(figure(README, readme)).toBe(actual());
  });
});

/** How many scenarios `waybill client-check --help` lists. */
function scenarioCount(): string {
  const { stdout } = spawnSync(process.execPath, [BIN, 'client-check', '--help'], { encoding: 'utf8', timeout: 60_000, env: withoutWaybillVariables() });
  const listed = stdout.slice(stdout.indexOf('\nScenarios:\n') + 12).split('\n\n')[0]!;
  return String(listed.split('\n').filter((line) => /^ {2}client\.\S+ {2}/.test(line)).length);
}

/** The size of the order pools of the profile the README's --save-profile line wrote (and refill topped up): one figure when all agree. */
function provisionedPoolSize(): string {
  const profile = JSON.parse(readFileSync(join(folder, '.waybill', 'profile.json'), 'utf8')) as { orders: Record<string, unknown[]> };
  return [...new Set(Object.values(profile.orders).map((ids) => ids.length))].join(' or ');
}

describe('README examples: reading the README', () => {
  it('takes a quoted string or a trailing backslash as one command, and a "# → " line as its output', () => {
    const markdown = ['```sh', "X=$(curl -d '{", '  "a": 1', "}' | sed 's/#/x/')   # not a quote", 'echo one \\', '  two   # → one two', '# → and more', '# plain', '# → not its output', '```'].join('\n');
    const parsed = readmeCommands(markdown);
    expect(parsed.map((command) => [command.key, command.line, command.quoted])).toEqual([
      [`X=$(curl -d '{ "a": 1 }' | sed 's/#/x/')`, 2, []],
      ['echo one two', 5, ['one two', 'and more']],
    ]);
    expect(oneLine(' a \n b ')).toBe('a b');
  });

  it('matches a quote line by line, … standing for any text within a line', () => {
    expect(quoteHolds('x\n  {"a":1,"b":2}\ny', ['{"a":…,"b":2}', 'y'])).toBe(true);
    expect(quoteHolds('{"a":1,"b":3}', ['{"a":…,"b":2}'])).toBe(false);
    expect(quoteHolds('a\nb', ['b', 'a'])).toBe(false);
    expect(quotedOutputs('It prints <!-- output of: echo  hi -->\n`hi…`, and\n<!-- output of: ls -->\n```\na\nb\n```\n')).toEqual([
      { command: 'echo hi', quote: ['hi…'], line: 1 },
      { command: 'ls', quote: ['a', 'b'], line: 3 },
    ]);
  });
});
