/**
 * The tests that hold one document (the README or a guide) to its word (issues 26 and 38): its
 * shell examples run in one session (doc-session.ts), each command ends as the document says
 * (exit 0 and 2xx answers, unless listed otherwise), every command not run is listed with why
 * and still names a command of the document, every output it quotes (`# → …` lines and
 * `<!-- output of: … -->` blocks) is what the command printed, and every figure it states is
 * the one the tools give. Called from a test file, once per document.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../spec/package-files.ts';
import { type DocumentExamples, type DocumentSession, runDocument } from './doc-session.ts';
import { quotedOutputs, quoteHolds, readmeCommands } from './readme-examples.ts';

/** A figure the document states: its name, where it stands in the document (group 1), and what the tools give for it. */
export type Figure = readonly [name: string, inDocument: RegExp, actual: (session: DocumentSession) => string | Promise<string>];

/** The command of the banner, whose output is the banner of the sandbox the session started. */
const SERVE = 'npx waybill serve';
/** The curl line of the banner, written with a placeholder key. */
const BANNER_CURL = "curl -s -H 'X-Api-Key: wbk_…'";

/** The first group of `pattern` in `text`; a failure names what was looked for. */
export function figure(text: string, pattern: RegExp): string {
  const found = pattern.exec(text);
  if (found === null) throw new Error(`nothing matches ${pattern}`);
  return found[1]!;
}

/** What `key` (a command of the document) printed when the session ran it; the banner for `npx waybill serve`. */
export function outputOf(session: DocumentSession, key: string): string {
  if (key === SERVE && session.banner !== '') return session.banner;
  const index = session.run.findIndex((command) => command.key === key);
  if (index === -1) throw new Error(`no command of the document that the session runs reads ${key}`);
  return session.results[index]?.output ?? '';
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

/** Declares the tests of one document's examples, quotes and figures. */
export function describeExamples(examples: DocumentExamples, figures: readonly Figure[] = []): void {
  const markdown = readFileSync(join(PACKAGE_ROOT, examples.file), 'utf8');
  const commands = readmeCommands(markdown);
  const run = commands.filter((command) => !examples.notRun.some(({ pattern }) => pattern.test(command.key)));
  let session: DocumentSession;

  // A describe of its own, so that its session runs only when one of its tests does.
  describe(examples.file, () => {
    beforeAll(async () => {
      session = await runDocument(examples);
    }, 900_000);
    afterAll(() => session?.close());

    describe('the commands', () => {
      it(`runs or lists as not run each of its ${commands.length} shell commands`, () => {
        const listed = commands.filter((command) => examples.notRun.some(({ pattern }) => pattern.test(command.key)));
        expect(run.length + listed.length).toBe(commands.length);
      });

      it.each(examples.notRun.map(({ pattern, why }) => [String(pattern), why, pattern] as const))('not run: %s (%s), which still names a command of the document', (_name, _why, pattern) => {
        expect(commands.some((command) => pattern.test(command.key))).toBe(true);
      });

      it.each(run.map((command, index) => [command.key.slice(0, 140), index, command] as const))('runs %s', (_name, index, command) => {
        const result = session.results[index];
        expect(result, 'the command never ran: the session stopped before it').toBeDefined();
        const exit = examples.expectedExit?.find(({ pattern }) => pattern.test(command.key))?.code ?? 0;
        expect(result!.exitCode, failuresFirst(result!.output)).toBe(exit);
        const expected = examples.expectedStatus?.find(({ pattern }) => pattern.test(command.key))?.status;
        const wrong = result!.statuses.filter((status) => (expected === undefined ? status < 200 || status > 299 : status !== expected));
        expect(wrong, `answered ${result!.statuses.join(', ')}, expected ${expected ?? '2xx'}: ${result!.output.slice(0, 600)}`).toEqual([]);
      });

      if (commands.some((command) => command.key.startsWith(BANNER_CURL))) {
        it("the banner prints the document's curl line, with the demo tenant's key, and it reads two orders", async () => {
          const written = commands.find((command) => command.key.startsWith(BANNER_CURL))!;
          const line = session.banner.split('\n').find((candidate) => quoteHolds(candidate, [written.key]));
          expect(line, session.banner).toBeDefined();
          const { execFileSync } = await import('node:child_process');
          const answer = execFileSync('bash', ['-c', session.here(line!.trim())], { encoding: 'utf8', timeout: 60_000 });
          expect((JSON.parse(answer) as { items: unknown[] }).items).toHaveLength(2);
        });
      }
    });

    const quotes = [
      ...commands.filter((command) => command.quoted.length > 0).map((command) => ({ command: command.key, quote: command.quoted, line: command.line })),
      ...quotedOutputs(markdown),
    ];
    if (quotes.length > 0) {
      describe('the outputs it quotes', () => {
        it.each(quotes.map((quoted) => [quoted.line, quoted.command.slice(0, 100), quoted] as const))('line %i: what `%s` prints', (_line, _name, { command, quote }) => {
          const known = run.some((candidate) => candidate.key === command) || (command === SERVE && examples.sandbox === 'started');
          expect(known, 'a quoted output of a command this test does not run').toBe(true);
          const output = outputOf(session, command);
          expect(quoteHolds(output, quote), `the document quotes:\n${quote.join('\n')}\nthe command printed:\n${output.slice(0, 3000)}`).toBe(true);
        });
      });
    }

    if (figures.length > 0) {
      describe('the figures it states', () => {
        it.each(figures)('%s', async (_name, inDocument, actual) => {
          expect(figure(markdown, inDocument)).toBe(await actual(session));
        });
      });
    }
  });
}
