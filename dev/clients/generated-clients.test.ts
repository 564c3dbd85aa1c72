/**
 * The contract as client generators read it (issue 40): each of four generators from npm writes a
 * client of both documents with its default options, each client compiles under `tsc --strict`
 * with its program, and each program runs against a sandbox: the control plane's sets up a tenant
 * (spec/sandbox.yaml), the integration program follows the feed, pays, cancels, archives and
 * branches on problem types (spec/openapi.yaml). No cast, no hand-written header type, no patch of
 * generated code: what a generator cannot do by design, its program works around and says so
 * (generators.ts). Prints the table generator × document: generated / compile errors / steps passed.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStore, type RunningServer, startServer, TEST_ADMIN_TOKEN } from '../testing/sandbox.ts';
import { type ClientRun, clientFolder, compile, generate, placeProgram, prepareWorkspace, runProgram } from './client-runs.ts';
import { fallbackSetup } from './fallback-setup.ts';
import { DOCUMENTS, type DocumentName, type Generator, GENERATORS } from './generators.ts';
import { type Setup, type StepName, STEPS } from './programs/steps.ts';

/** A failure the contract (or the sandbox) causes today, which an item of issue 40 fixes. */
interface KnownContractGap {
  /** The generator's folder (generators.ts). */
  generator: string;
  document: DocumentName;
  /** What fails: the generation, the compilation (errors matching `match`), or a step of the program. */
  fails: 'generate' | 'compile' | StepName;
  /** For `compile`: the errors this gap accounts for. */
  match?: RegExp;
  /** The item of issue 40 that fixes it. */
  fixedBy: string;
}

/**
 * The precise failures known today, each with the item that fixes it. Each must still fail (so that
 * the list shrinks as the contract is fixed); anything not listed must pass. An entry reads, for
 * example: `{ generator: 'openapi-zod-client', document: 'sandbox.yaml', fails: 'compile',
 * match: /No overload matches this call[\s\S]*Type 'null' is not assignable/, fixedBy: 'item 2,
 * nullable enums' }`, or `{ …, fails: 'cancel-without-body', fixedBy: 'item 5, a bodyless request' }`.
 */
export const knownContractGaps: KnownContractGap[] = [];

const PROGRAMS = fileURLToPath(new URL('programs', import.meta.url));

/** The casts (`as` other than `as const`, `<T>x`), non-null assertions and `@ts-` comments in a program's text, each with its line. */
function assertionsIn(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node) => `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText()}`;
  const visit = (node: ts.Node): void => {
    if (ts.isAsExpression(node) && node.type.getText() !== 'const') found.push(at(node));
    if (ts.isTypeAssertionExpression(node) || ts.isNonNullExpression(node)) found.push(at(node));
    ts.forEachChild(node, visit);
  };
  visit(source);
  for (const [index, line] of text.split('\n').entries()) if (/@ts-(ignore|expect-error|nocheck)/.test(line)) found.push(`${file}:${index + 1}: ${line.trim()}`);
  return found;
}

/** What became of each generator's client of each document. */
const runs = new Map<string, ClientRun>();
const runOf = (generator: Generator, document: DocumentName) => runs.get(`${generator.folder} ${document}`)!;
let sandbox: RunningServer;
let workspace: string;

/** Generates the client of `document`, puts its program beside it and compiles both. */
async function makeClient(generator: Generator, document: DocumentName): Promise<ClientRun> {
  const folder = clientFolder(workspace, generator, document);
  const generateOutput = await generate(generator, document, folder);
  placeProgram(generator, document, folder);
  const compileErrors = generateOutput === null ? await compile(document, folder) : [];
  return { generated: generateOutput === null, generateOutput: generateOutput ?? '', compileErrors, steps: new Map(), programErrors: '' };
}

/** One generator's clients of both documents, made and run: the control plane's setup, the integration program, the control plane's look at the history. */
async function measure(generator: Generator): Promise<void> {
  const [api, controlPlane] = await Promise.all([makeClient(generator, 'openapi.yaml'), makeClient(generator, 'sandbox.yaml')]);
  runs.set(`${generator.folder} openapi.yaml`, api);
  runs.set(`${generator.folder} sandbox.yaml`, controlPlane);
  const input = { url: sandbox.url, adminToken: TEST_ADMIN_TOKEN };
  const controlPlaneFolder = clientFolder(workspace, generator, 'sandbox.yaml');
  let setup: Setup | undefined;
  if (controlPlane.generated) {
    const made = await runProgram('sandbox.yaml', controlPlaneFolder, input, 'setup');
    for (const [name, outcome] of made.steps) controlPlane.steps.set(name, outcome);
    controlPlane.programErrors += made.errors;
    if ([...made.steps.values()].every((outcome) => outcome.passed) && made.setup !== undefined) setup = made.setup;
  }
  // A control-plane client that could not set up leaves the integration client to be judged on its own.
  setup ??= await fallbackSetup(sandbox.url, TEST_ADMIN_TOKEN);
  if (api.generated) {
    const ran = await runProgram('openapi.yaml', clientFolder(workspace, generator, 'openapi.yaml'), { ...input, setup });
    api.steps = ran.steps;
    api.programErrors = ran.errors;
  }
  if (controlPlane.generated) {
    const verified = await runProgram('sandbox.yaml', controlPlaneFolder, { ...input, setup }, 'verify');
    for (const [name, outcome] of verified.steps) controlPlane.steps.set(name, outcome);
    controlPlane.programErrors += verified.errors;
  }
}

/** The table the closing note of issue 40 gives, and under it what failed. */
function table(): string {
  const rows = GENERATORS.flatMap((generator) =>
    DOCUMENTS.map((document) => {
      const run = runOf(generator, document);
      const passed = STEPS[document].filter((name) => run.steps.get(name)?.passed).length;
      return `| ${generator.name} | ${document} | ${run.generated ? 'yes' : 'no'} | ${run.generated ? run.compileErrors.length : '–'} | ${passed}/${STEPS[document].length} |`;
    }),
  );
  const failures = GENERATORS.flatMap((generator) =>
    DOCUMENTS.flatMap((document) => {
      const run = runOf(generator, document);
      const failed = [...run.steps].filter(([, outcome]) => !outcome.passed).map(([name, outcome]) => `  step ${name}: ${outcome.detail}`);
      const missing = STEPS[document].filter((name) => !run.steps.has(name)).map((name) => `  step ${name}: not reported`);
      const lines = [
        ...(run.generated ? [] : [`  generation: ${run.generateOutput.split('\n').slice(0, 5).join(' ')}`]),
        ...run.compileErrors.map((error) => `  tsc: ${error.split('\n')[0]}`),
        ...failed,
        ...(run.generated ? missing : []),
        ...(run.programErrors ? [`  program: ${run.programErrors.split('\n').slice(0, 3).join(' ')}`] : []),
      ];
      return lines.length > 0 ? [`${generator.name}, ${document}:`, ...lines] : [];
    }),
  );
  const byDesign = GENERATORS.flatMap((generator) => generator.byDesign.map((note) => `${generator.name}: ${note}`));
  return [
    '| generator | document | generated | compile errors | steps passed |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    ...failures,
    ...(byDesign.length > 0 ? ['', 'Worked around in the programs, by design of the generator:', ...byDesign] : []),
  ].join('\n');
}

/** The known gaps of one generator's client of one document that fail at `fails`. */
const gapsOf = (generator: Generator, document: DocumentName, fails: KnownContractGap['fails']) =>
  knownContractGaps.filter((gap) => gap.generator === generator.folder && gap.document === document && gap.fails === fails);

describe('the programs', () => {
  it('hold no cast, no non-null assertion and no @ts- comment: what they do, the generated types allow', () => {
    const files = readdirSync(PROGRAMS, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
    const found = files.flatMap((file) => assertionsIn(file, readFileSync(join(PROGRAMS, file), 'utf8')));
    expect(files.length).toBeGreaterThan(8);
    expect(found).toEqual([]);
  });
});

describe('generated clients', () => {
  beforeAll(async () => {
    workspace = mkdtempSync(join(tmpdir(), 'waybill-clients-'));
    prepareWorkspace(workspace);
    sandbox = await startServer(await memoryStore(), { adminToken: TEST_ADMIN_TOKEN });
    await Promise.all(GENERATORS.map(measure));
    console.log(table());
  }, 300_000);

  afterAll(async () => {
    await sandbox?.close();
    if (workspace !== undefined) rmSync(workspace, { recursive: true, force: true });
  });

  describe.each(GENERATORS)('$name', (generator) => {
    describe.each(DOCUMENTS)('%s', (document) => {
      it('generates a client with the default options', () => {
        const run = runOf(generator, document);
        const known = gapsOf(generator, document, 'generate');
        if (known.length > 0) expect(run.generated, `the generation (${known[0]!.fixedBy}) now succeeds: take it off knownContractGaps`).toBe(false);
        else expect(run.generateOutput).toBe('');
      });

      it('compiles with its program under tsc --strict', () => {
        const run = runOf(generator, document);
        const gaps = gapsOf(generator, document, 'compile');
        expect(run.compileErrors.filter((error) => !gaps.some((gap) => (gap.match ?? /./).test(error)))).toEqual([]);
        for (const gap of gaps) expect(run.compileErrors.some((error) => (gap.match ?? /./).test(error)), `${gap.match ?? 'compile'} (${gap.fixedBy}) no longer fails: take it off knownContractGaps`).toBe(true);
      });

      it.each(STEPS[document].map((name) => [name]))('runs its program: step %s', (name) => {
        const run = runOf(generator, document);
        if (!run.generated) return;
        const outcome = run.steps.get(name);
        const known = gapsOf(generator, document, name);
        if (known.length > 0) expect(outcome?.passed ?? false, `step ${name} (${known.map((gap) => gap.fixedBy).join(', ')}) now passes: take it off knownContractGaps`).toBe(false);
        else expect(outcome ?? { passed: false, detail: `not reported${run.programErrors ? `; ${run.programErrors}` : ''}` }).toEqual({ passed: true });
      });
    });
  });
});
