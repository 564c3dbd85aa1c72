/**
 * One generator's client of one document, made and used as an integrator would: generated into a
 * folder outside the clone, compiled with `tsc --strict` beside its program, and the program run
 * against a sandbox. Each part records what happened; nothing here judges it.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DocumentName, Generator } from './generators.ts';
import type { ProgramInput, Setup, StepName } from './programs/steps.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const programs = fileURLToPath(new URL('programs', import.meta.url));
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

/** The files every program's folder gets beside its program. */
const SHARED = ['steps.ts', 'integration-scenario.ts', 'control-plane-scenario.ts'];

/** The program of each document, by file name in a generator's folder. */
const PROGRAM: Record<DocumentName, string> = { 'openapi.yaml': 'integration.ts', 'sandbox.yaml': 'control-plane.ts' };

/**
 * How the programs are compiled: `--strict`, and what a project of today sets around it (ES2022,
 * modules resolved as a bundler or tsx resolves them, the programs' own `.ts` imports).
 */
const TSC_OPTIONS = ['--strict', '--noEmit', '--target', 'es2022', '--module', 'preserve', '--moduleResolution', 'bundler', '--allowImportingTsExtensions', '--types', 'node'];

/** What a command printed and how it ended. */
interface Ran {
  code: number | null;
  out: string;
  err: string;
}

/** Runs `command` in `cwd` to its end, killed after `timeoutMs`. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env, timeoutMs = 120_000): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('error', (error) => (err += String(error)));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

/** A step's outcome as the program printed it. */
export interface StepOutcome {
  passed: boolean;
  detail?: string;
}

/** What a program printed: its steps, and the setup when it made one. */
export interface ProgramRun {
  steps: Map<StepName, StepOutcome>;
  /** The setup the control plane's program printed (its values empty where a step failed). */
  setup: Setup | undefined;
  /** Its standard error, when it wrote any (a crash, a refusal to start). */
  errors: string;
}

/** What became of one generator's client of one document. */
export interface ClientRun {
  generated: boolean;
  /** The generator's exit code and output when it failed, else empty. */
  generateOutput: string;
  /** Each error `tsc --strict` reported, with its location and the lines that explain it. */
  compileErrors: string[];
  /** The steps its program reported, by name. */
  steps: Map<StepName, StepOutcome>;
  /** The program's exit code and standard error, when it did not exit 0. */
  programErrors: string;
}

/** A folder for the clients, outside the clone; installed packages are the clone's, reached through a link. */
export function prepareWorkspace(workspace: string): void {
  mkdirSync(workspace, { recursive: true });
  // The generated code imports the clone's openapi-fetch, axios, zod and @zodios/core; tsx and tsc come from there too.
  if (!existsSync(join(workspace, 'node_modules'))) symlinkSync(join(root, 'node_modules'), join(workspace, 'node_modules'));
}

/** The folder of one generator's client of one document inside `workspace`. */
export function clientFolder(workspace: string, generator: Generator, document: DocumentName): string {
  return join(workspace, generator.folder, document.replace('.yaml', ''));
}

/** Writes the generator's client of `document` into `folder`/generated; its output when it failed, else null. */
export async function generate(generator: Generator, document: DocumentName, folder: string): Promise<string | null> {
  const output = join(folder, 'generated');
  mkdirSync(output, { recursive: true });
  const [command, ...args] = generator.command(join(root, 'spec', document), output);
  const ran = await run(bin(command!), args, folder, { ...process.env, NO_COLOR: '1' });
  if (ran.code === 0 && existsSync(join(output, generator.entry))) return null;
  return `exit ${ran.code}: ${`${ran.err}\n${ran.out}`.trim()}`;
}

/**
 * Puts the program of `document` beside the generated client, which it imports as `#client`, laid
 * out as in programs/: the shared files in `folder`, the generator's own in `folder`/program.
 */
export function placeProgram(generator: Generator, document: DocumentName, folder: string): void {
  for (const file of SHARED) copyFileSync(join(programs, file), join(folder, file));
  const own = join(programs, generator.folder);
  mkdirSync(join(folder, 'program'), { recursive: true });
  // A generator's folder may hold a file both its programs import (openapi-zod-client's zodios-answers.ts).
  for (const file of readdirSync(own)) if (file === PROGRAM[document] || !Object.values(PROGRAM).includes(file)) copyFileSync(join(own, file), join(folder, 'program', file));
  const manifest = { private: true, type: 'module', imports: { '#client': `./generated/${generator.entry}`, '#client/*': './generated/*' } };
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** Every error `tsc --strict` reports for the program and the client it imports, each with its location and the lines that explain it. */
export async function compile(document: DocumentName, folder: string): Promise<string[]> {
  const ran = await run(bin('tsc'), [...TSC_OPTIONS, join('program', PROGRAM[document])], folder);
  const errors: string[] = [];
  for (const line of ran.out.split('\n')) {
    if (/error TS\d+:/.test(line)) errors.push(line);
    else if (line.startsWith(' ') && errors.length > 0) errors[errors.length - 1] += `\n${line}`;
  }
  if (ran.code !== 0 && errors.length === 0) errors.push(`tsc exited ${ran.code}: ${ran.err || ran.out}`);
  return errors;
}

/** Runs the program in `folder` (with tsx, whatever the compiler said) and reads the lines it printed. */
export async function runProgram(document: DocumentName, folder: string, input: ProgramInput, phase?: 'setup' | 'verify'): Promise<ProgramRun> {
  const env = { ...process.env, WAYBILL_CLIENT_INPUT: JSON.stringify(input), WAYBILL_CLIENT_PHASE: phase ?? '' };
  const ran = await run(process.execPath, ['--import', 'tsx', join('program', PROGRAM[document])], folder, env, 60_000);
  const steps = new Map<StepName, StepOutcome>();
  let setup: Setup | undefined;
  for (const line of ran.out.split('\n')) {
    if (!line.startsWith('{')) continue;
    const printed: { step?: StepName; passed?: boolean; detail?: string; setup?: Setup } = JSON.parse(line);
    if (printed.step !== undefined) steps.set(printed.step, { passed: printed.passed === true, ...(printed.detail === undefined ? {} : { detail: printed.detail }) });
    if (printed.setup !== undefined) setup = printed.setup;
  }
  return { steps, setup, errors: ran.code === 0 ? '' : `exit ${ran.code}: ${ran.err.trim()}` };
}
