/**
 * Writes `docs/reference.md`, every command and option of `waybill`, from the CLI's own
 * `--help` (each subcommand's, and each member's of a group such as `waybill keys generate`),
 * and the npm scripts of a clone from `package.json`. `reference.test.ts` fails when the file is
 * not what this writes, so a changed option reaches the guide in the same commit.
 *
 *   npx tsx dev/scripts/write-reference.ts          write docs/reference.md
 *   npx tsx dev/scripts/write-reference.ts --check  exit 1 when docs/reference.md is not current
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGE_ROOT } from '../../spec/package-files.ts';

/** Where the reference is written. */
export const REFERENCE_FILE = join(PACKAGE_ROOT, 'docs', 'reference.md');

/** What each npm script of a clone does; a script not listed here is shown with its command line. */
const scriptPurposes: Record<string, string> = {
  start: 'the reference sandbox on 127.0.0.1:4000 (`waybill serve`)',
  build: 'compile to `dist/` (what `bin/waybill.js` runs), the document cache, the requirement markers and the console bundle; `npm install` runs it (`prepare`)',
  prepare: 'runs `npm run build` on `npm install` in a clone',
  test: 'the tests a contributor runs after every change (see `docs/developing.md`)',
  'test:all': 'the full gate CI runs (`.ci/run`): every test of the project (see `docs/developing.md`)',
  'test:watch': 'vitest in watch mode: the tests of what changed, again on every save',
  'test:times': 'runs the tests (the `npm test` tier, or the paths given) and prints where the time went: the slowest files and tests, and the time spent starting sandboxes, databases, Chromium and Prism',
  typecheck: '`tsc --noEmit` over the whole tree and the console',
  'lint:spec': 'Redocly\'s and Spectral\'s lint of both OpenAPI documents (`spec/redocly.yaml`, `spec/spectral.yaml`); any finding fails it',
  'gen:spec': 'regenerate the end of `spec/openapi.yaml` and `spec/sandbox.yaml` (each problem answer\'s `type` codes, the integration schemas `sandbox.yaml` copies: D91), then the types, after a change to the contract',
  'gen:types': 'regenerate `spec/openapi-types.ts`, `spec/sandbox-types.ts` and `spec/catalog-codes.ts` after a change to the contract',
  'check:seeds': 'prove that `spec/errors.yaml` matches the seed catalog and that `spec/requirements.yaml` quotes the seeds word for word; needs the two seed documents (`npm run check:seeds -- DIR`, or `WAYBILL_SEEDS_DIR`)',
  'check:package': 'pack the clone, install the tarball into an empty folder and run every command there (`--keep` leaves the folder)',
  bench: 'feed benchmarks against a bare `node:http` ceiling (see `docs/performance.md`)',
  'bench:start': 'start-up of `waybill serve` against Prism\'s mock, and `--help` against `node -e 0`',
  'bench:workers': 'the sandbox with 1 and 2 workers on PostgreSQL against the ceiling',
  fuzz: 'the fuzz campaign against an in-process sandbox (see `docs/vendor.md#fuzzing`)',
};

/** `waybill ARGS` as a user runs it (the sources, so that the reference never waits on a build); its standard output. */
function help(args: string[]): string {
  const result = spawnSync(process.execPath, [join(PACKAGE_ROOT, 'bin', 'waybill.js'), ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    // Not a terminal, so commander wraps at 80 columns whatever the machine's terminal is.
    env: { ...process.env, WAYBILL_FROM_SOURCES: '1' },
  });
  if (result.status !== 0) throw new Error(`waybill ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return result.stdout.replace(/\s+$/, '');
}

/** The subcommands `waybill --help` lists, each with its summary. */
function subcommands(): { name: string; summary: string }[] {
  const listed = help(['--help']).split('\nCommands:\n')[1]!.split('\n\n')[0]!;
  return listed.split('\n').map((line) => {
    const [, name, summary] = /^ {2}(\S+) +(.+)$/.exec(line)!;
    return { name: name!, summary: summary! };
  });
}

/** The members of a command group its `--help` names (`Run \`waybill profile <env|refill> --help\``), else none. */
function members(text: string, name: string): string[] {
  const named = new RegExp(`Run \`waybill ${name} (\\S+) --help\``).exec(text)?.[1];
  return named === undefined ? [] : named.replace(/^<|>$/g, '').split('|');
}

/** A command's section: its heading and its help as printed. */
function section(command: string, text: string): string {
  return `## ${command}\n\n\`\`\`text\n${text}\n\`\`\`\n`;
}

/** The reference as Markdown. */
export function reference(): string {
  const commands = subcommands();
  const sections: string[] = [section('waybill', help(['--help']))];
  for (const { name } of commands) {
    const text = help([name, '--help']);
    sections.push(section(`waybill ${name}`, text));
    for (const member of members(text, name)) sections.push(section(`waybill ${name} ${member}`, help([name, member, '--help'])));
  }
  const scripts = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const scriptRows = Object.entries(scripts).map(([name, line]) => `| \`npm run ${name}\` | ${scriptPurposes[name] ?? `\`${line.replaceAll('|', '\\|')}\``} |`);
  return [
    '# Command reference',
    '',
    'Every command of `waybill` and every option, as its own `--help` prints it. This file is written',
    'by `dev/scripts/write-reference.ts` from the CLI itself, and a test fails when it is not current:',
    'edit the commands, not this file. `npx waybill --help` lists the commands and each has its own',
    '`--help`; `waybill help COMMAND` is the same. A command line a command cannot act on is one line',
    'on stderr, `waybill: … (see waybill COMMAND --help)`, and exit 2.',
    '',
    '| command | does |',
    '|---|---|',
    ...commands.map(({ name, summary }) => `| [\`waybill ${name}\`](#waybill-${name}) | ${summary} |`),
    '',
    ...sections,
    '## npm scripts of a clone',
    '',
    'In a clone of the repository (not in the installed package), `package.json` has these scripts:',
    '',
    '| script | does |',
    '|---|---|',
    ...scriptRows,
    '',
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const text = reference();
  if (process.argv.includes('--check')) {
    const current = readFileSync(REFERENCE_FILE, 'utf8') === text;
    process.stdout.write(current ? 'docs/reference.md is current\n' : 'docs/reference.md is not current: run npx tsx dev/scripts/write-reference.ts\n');
    process.exitCode = current ? 0 : 1;
  } else {
    writeFileSync(REFERENCE_FILE, text);
    process.stdout.write(`wrote ${REFERENCE_FILE}\n`);
  }
}
