/**
 * A README that cannot drift (issues 26 and 38): its shell examples run, in README order and in
 * one bash session, against a sandbox this test starts (doc-session.ts), and every output and
 * figure the README quotes is compared with what they print. A changed output fails here until
 * the README follows. What is not run is listed below with why, and each entry must still name a
 * command of the README. The guides' examples are held the same way in guide-examples.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../spec/package-files.ts';
import { describeExamples, figure, outputOf } from './doc-examples.ts';
import { oneLine, quotedOutputs, quoteHolds, readmeCommands } from './readme-examples.ts';

const packageJson = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
const conformance = 'npx waybill conformance --target http://127.0.0.1:4000 --provision';

describeExamples(
  {
    file: 'README.md',
    sandbox: 'started',
    notRun: [
      { pattern: /^npm pack$/, why: 'builds and packs the clone (npm run check:package does it); the file name it writes is checked from package.json below' },
      { pattern: /^npm install\b/, why: 'installs the tarball into a project or the machine; this test lays node_modules/waybill as a link to this clone instead' },
      { pattern: /^npx waybill serve$/, why: 'the sandbox itself: this test starts it as `WAYBILL_ADMIN_TOKEN=sandbox-admin waybill serve` on a free port, and its banner is the output quoted' },
      { pattern: /^curl -s -H 'X-Api-Key: wbk_…'/, why: "its key is a placeholder: the banner's own curl line is checked against it, and run" },
      { pattern: /--target https:\/\/api\.example\.test /, why: "a vendor's own server with a hand-written profile; the line above runs the same suite against the sandbox" },
    ],
  },
  [
    ["the catalog's size", /the (\d+)-code error\s+catalog/, (session) => figure(outputOf(session, conformance), /catalog coverage \((\d+) codes\)/)],
    ["the demo tenant's orders", /a demo tenant \((\d+) orders,/, (session) => figure(session.banner, /demo tenant \S+: (\d+) orders, \d+ trips/)],
    ["the demo tenant's trips", /a demo tenant \(\d+ orders,\s+(\d+) trips/, (session) => figure(session.banner, /demo tenant \S+: \d+ orders, (\d+) trips/)],
    ['the file npm pack writes', /npm pack\s+# in the clone: writes (\S+)/, () => `${packageJson.name}-${packageJson.version}.tgz`],
  ],
);

describe('README examples: reading a document', () => {
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
