/**
 * The guides cannot drift (issue 38): each guide under docs/ is held as the README is
 * (doc-examples.ts): its shell examples run in order, in one bash session of their own, against a
 * sandbox of their own or the one the guide starts; each command not run is listed with why;
 * each output and figure it quotes is what the tools print. A guide with no command to run (the
 * reference is `--help` text, written and checked by dev/scripts/write-reference.ts) still has
 * its list of what it does not run checked against its commands.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadWaivers } from '../../conformance/certify/waivers.ts';
import { checks } from '../../conformance/checks/index.ts';
import { profileProblems } from '../../conformance/setup/profile.ts';
import { PACKAGE_ROOT } from '../../spec/package-files.ts';
import { describeExamples, figure, outputOf } from './doc-examples.ts';
import { type DocumentSession, withoutWaybillVariables } from './doc-session.ts';

const BIN = join(PACKAGE_ROOT, 'bin', 'waybill.js');
const conformance = 'npx waybill conformance --target http://127.0.0.1:4000 --provision';
const theSandbox = { pattern: /^npx waybill serve$/, why: 'the sandbox itself: this test starts it on a free port, and its banner is the output quoted' };

/** The profile the vendor guide's `--save-profile` line wrote (and `profile refill` topped up). */
function savedProfile(session: DocumentSession): { orders: Record<string, unknown[]> } {
  return JSON.parse(readFileSync(join(session.folder, '.waybill', 'profile.json'), 'utf8')) as { orders: Record<string, unknown[]> };
}

/** How many scenarios `waybill client-check --help` lists. */
function scenarioCount(): string {
  const { stdout } = spawnSync(process.execPath, [BIN, 'client-check', '--help'], { encoding: 'utf8', timeout: 60_000, env: withoutWaybillVariables() });
  const listed = stdout.slice(stdout.indexOf('\nScenarios:\n') + 12).split('\n\n')[0]!;
  return String(listed.split('\n').filter((line) => /^ {2}client\.\S+ {2}/.test(line)).length);
}

describeExamples(
  {
    file: 'docs/integrator.md',
    sandbox: 'started',
    notRun: [
      theSandbox,
      { pattern: /^curl -s -H 'X-Api-Key: wbk_…'/, why: "its key is a placeholder: the banner's own curl line is checked against it, and run" },
      { pattern: /^npx waybill serve --fixtures /, why: 'a second long-running sandbox; server/start/serve.test.ts serves that dataset' },
      { pattern: /^WAYBILL_ADMIN_TOKEN=sandbox-admin npx waybill serve /, why: 'the sandbox itself: this test starts it with that token' },
      { pattern: /^curl -sN /, why: 'a Server-Sent Events stream, which never ends' },
      { pattern: /^npx waybill mock$/, why: 'a long-running Prism mock (mock/cli.test.ts starts it)' },
      { pattern: /^npx waybill client-check -- python3 /, why: "the line above's scenarios with the same client in Python; the client-check tests run it at page sizes 1, 50 and 100" },
      { pattern: /^npx openapi-typescript /, why: "a generator the reader installs (this session's npx runs waybill only); dev/clients/generated-clients.test.ts generates both documents' clients with it and three others, and compiles and runs them" },
    ],
    expectedStatus: [
      { pattern: /'Prefer: fault=503'/, status: 503 },
      { pattern: /'Prefer: problem=api\.malformed_request'/, status: 400 },
      { pattern: /"by":"25 hours"/, status: 400 },
    ],
    expectedExit: [{ pattern: /naive\.mjs new-key-per-retry$/, code: 1 }],
  },
  [
    ["the demo tenant's orders", /a demo tenant \((\d+) orders,/, (session) => figure(session.banner, /demo tenant \S+: (\d+) orders, \d+ trips/)],
    ["the demo tenant's trips", /a demo tenant \(\d+ orders,\s+(\d+) trips/, (session) => figure(session.banner, /demo tenant \S+: \d+ orders, (\d+) trips/)],
    ["client-check's scenarios", /# (\d+) scenarios/, scenarioCount],
    ['the answer of GET /health', /`GET \/health` answers `([^`]+)`/, async (session) => (await fetch(`http://${session.here('127.0.0.1:4000')}/health`)).text()],
  ],
);

describeExamples(
  {
    file: 'docs/vendor.md',
    sandbox: 'started',
    notRun: [theSandbox, { pattern: /^npm run fuzz\b/, why: 'the fuzz campaign, a clone\'s script; dev/fuzz/fuzz.test.ts runs 10,000 cases of it' }],
    expectedExit: [{ pattern: /^npx waybill verify reports\/acme\/certification --public-key other-keys\//, code: 1 }],
  },
  [
    ['the catalog codes a run lists', /lists all (\d+) catalog codes/, (session) => figure(outputOf(session, conformance), /catalog coverage \((\d+) codes\)/)],
    ['the ids --provision gives the payable pool', /`--provision` gives (\d+) to `payable`/, (session) => String(savedProfile(session).orders['payable']!.length)],
    ['the ids --provision gives each other pool', /and (\d+) to each other\)/, (session) => {
      const { payable: _payable, ...others } = savedProfile(session).orders;
      return [...new Set(Object.values(others).map((ids) => ids.length))].join(' or ');
    }],
  ],
);

describe('docs/vendor.md: the files it shows are what the suite reads', () => {
  const vendor = readFileSync(join(PACKAGE_ROOT, 'docs/vendor.md'), 'utf8');
  const blocks = (language: string) => [...vendor.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((match) => match[1]!);
  const [profile, choices] = blocks('json');

  it('the profile is valid by conformance/profile.schema.json, and so is it with the choices shown', () => {
    const parsed = JSON.parse(profile!) as Record<string, unknown>;
    expect(profileProblems(parsed)).toEqual([]);
    expect(profileProblems({ ...parsed, ...(JSON.parse(`{${choices!}}`) as object) })).toEqual([]);
  });

  it('the waivers file loads as --waivers reads it, naming a check of the suite and a requirement the check verifies', () => {
    const folder = mkdtempSync(join(tmpdir(), 'waybill-waivers-'));
    try {
      writeFileSync(join(folder, 'waivers.yaml'), blocks('yaml')[0]!);
      const [waiver] = loadWaivers(join(folder, 'waivers.yaml'), new Set(checks.map((check) => check.id)));
      expect(checks.find((check) => check.id === waiver!.check)!.verifies).toContain(waiver!.requirement);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describeExamples({ file: 'docs/ci.md', sandbox: 'document', notRun: [] });

describeExamples({
  file: 'docs/hosting.md',
  sandbox: 'none',
  notRun: [
    { pattern: /^createdb waybill$|^npx waybill serve --db postgres:\/\//, why: "a PostgreSQL server of the reader's own; server/start/serve-postgres.test.ts serves a database of a throwaway cluster the same way" },
    { pattern: /^npx waybill serve --workers /, why: 'a long-running sandbox of several processes on a PostgreSQL server; server/start/serve-workers-postgres.test.ts runs it on a throwaway cluster' },
  ],
});

describeExamples({
  file: 'docs/performance.md',
  sandbox: 'none',
  notRun: [{ pattern: /^npm run bench\b|^npx tsx dev\/bench\//, why: 'benchmarks: minutes on an idle machine, never a test; dev/bench/report.test.ts holds the tables to the runs they came from' }],
});

describeExamples({ file: 'docs/reference.md', sandbox: 'none', notRun: [] });

/** The guides held here, and the one that is not, with why. */
const covered = ['docs/integrator.md', 'docs/vendor.md', 'docs/ci.md', 'docs/hosting.md', 'docs/performance.md', 'docs/reference.md'];
const notCovered = { 'docs/developing.md': "the contributors' guide: its commands are the test tiers, this file among them; doc-links.test.ts still reads its links" };

describe('the guides under docs/', () => {
  it('are each held here, but for those listed with why', () => {
    const guides = readdirSync(join(PACKAGE_ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);
    expect(guides.filter((file) => !Object.hasOwn(notCovered, file)).sort()).toEqual([...covered].sort());
  });
});
