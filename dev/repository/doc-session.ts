/**
 * Runs the shell examples of one document (the README or a guide under `docs/`) the way a
 * reader would: in document order, in one bash session, in a folder laid out as a project that
 * installed waybill (`node_modules/waybill` holds the files `npm pack` would ship, but for the
 * compiled `dist/`), with `npx waybill` running this clone's bin from its sources. `127.0.0.1:4000` is either a sandbox this module starts on a
 * free port (`WAYBILL_ADMIN_TOKEN=sandbox-admin waybill serve`, its banner kept) or, for a
 * document that starts its own in the background, a free port given as `PORT`. What each
 * command printed comes back with its exit code and HTTP statuses, the addresses written back
 * as the document writes them.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort } from '../../mock/prism.ts';
import { PACKAGE_ROOT } from '../../spec/package-files.ts';
import { type ReadmeCommand, readmeCommands } from './readme-examples.ts';

/** A command of a document that the session does not run, and why. */
export interface NotRun {
  pattern: RegExp;
  why: string;
}

/** What a document's examples need to run. */
export interface DocumentExamples {
  /** The document, from the package root: `README.md`, `docs/integrator.md`. */
  file: string;
  /** The commands not run, each with its reason; every other command runs. */
  notRun: readonly NotRun[];
  /** Who answers at 127.0.0.1:4000: a sandbox started here, the document's own commands, or nobody (no command runs). */
  sandbox: 'started' | 'document' | 'none';
  /** Calls answered other than 2xx on purpose, with the status each gets. */
  expectedStatus?: readonly { pattern: RegExp; status: number }[];
  /** Commands that end with another exit code than 0 on purpose. */
  expectedExit?: readonly { pattern: RegExp; code: number }[];
}

/** What one command printed (stdout and stderr as a terminal shows them), its exit code and HTTP statuses. */
export interface CommandResult {
  output: string;
  exitCode: number;
  statuses: number[];
}

/** A document's examples after the session ran them. */
export interface DocumentSession {
  markdown: string;
  commands: ReadmeCommand[];
  /** The commands run, in order; `results[i]` is what `run[i]` printed. */
  run: ReadmeCommand[];
  results: (CommandResult | undefined)[];
  /** What the sandbox started here printed at start, the address as the document writes it; empty when none was started. */
  banner: string;
  /** The folder the session ran in. */
  folder: string;
  /** An output as the document would quote it: the session's address as `127.0.0.1:4000`, its home as `~`. */
  asQuoted(text: string): string;
  /** A document's text with its address replaced by the session's. */
  here(text: string): string;
  /** Stops what the session left running and removes its folder. */
  close(): Promise<void>;
}

/** The address the documents write. */
export const ADDRESS = '127.0.0.1:4000';
/** The admin token of the sandbox started here, as the documents fix it. */
const ADMIN_TOKEN = 'sandbox-admin';

/** This process's environment without waybill's own variables, but for running the sources as every test does. */
export function withoutWaybillVariables(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('WAYBILL_') || name === 'WAYBILL_FROM_SOURCES'));
}

let shipped: string[] | undefined;

/** The files `npm pack` puts in the package, by their path from its root (the build is not run for it). */
export function packageFiles(): string[] {
  shipped ??= (JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: PACKAGE_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as { files: { path: string }[] }[])[0]!.files.map((file) => file.path);
  return shipped;
}

/**
 * A folder laid out as a project that installed waybill: `node_modules/waybill` holds copies of
 * the files the package ships (so a path a document names under it must be one the package
 * has), but for `dist/`, as `npx waybill` runs this clone's sources; `node_modules/.bin/waybill`
 * is this clone's bin. The files are copies, not links: the example client runs only when its
 * path is its own (it compares `import.meta.url` with the path it was started by).
 */
export function projectFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(folder, 'home'));
  const installed = join(folder, 'node_modules', 'waybill');
  for (const file of packageFiles().filter((path) => !path.startsWith('dist/'))) {
    mkdirSync(dirname(join(installed, file)), { recursive: true });
    cpSync(join(PACKAGE_ROOT, file), join(installed, file));
  }
  mkdirSync(join(folder, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(join(PACKAGE_ROOT, 'bin', 'waybill.js'), join(folder, 'node_modules', '.bin', 'waybill'));
  return folder;
}

/** Starts `waybill serve` in `folder` on a free port; resolves with the child, the port and the banner once it printed the curl line to try. */
function startSandbox(folder: string): Promise<{ child: ChildProcess; port: number; banner: () => string }> {
  const env = { ...withoutWaybillVariables(), WAYBILL_ADMIN_TOKEN: ADMIN_TOKEN };
  const child = spawn(process.execPath, [join(PACKAGE_ROOT, 'bin', 'waybill.js'), 'serve', '--port', '0', '--host', '127.0.0.1', '--quiet'], { cwd: folder, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let banner = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk) => (banner += String(chunk)));
    child.stdout!.on('data', (chunk) => {
      banner += String(chunk);
      const listening = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(banner);
      if (listening && /try it:\n\s+curl .*\n/.test(banner)) resolve({ child, port: Number(listening[1]), banner: () => banner });
    });
    child.once('exit', (code) => reject(new Error(`waybill serve exited (${code}) before its banner: ${banner}`)));
  });
}

/** The bash script: `npx waybill` runs this clone's bin, curl reports each answer's status, each command between markers. */
function script(run: readonly ReadmeCommand[], here: (text: string) => string): string {
  const lines = [
    'exec 2>&1',
    'npx() { if [ "$1" = waybill ]; then shift; "$DOC_NODE" "$DOC_BIN" "$@"; else echo "npx $1: not run here"; return 127; fi; }',
    `curl() { command curl --max-time 60 -w '%{stderr}\\n@@http %{http_code}@@\\n' "$@"; }`,
  ];
  for (const [index, command] of run.entries()) lines.push(`printf '\\n@@begin ${index}@@\\n'`, here(command.text), `printf '\\n@@end ${index} %d@@\\n' "$?"`);
  return `${lines.join('\n')}\n`;
}

/** Runs bash on `file` in `folder` as a process group of its own; resolves with what it printed and its exit code. */
function bash(file: string, folder: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ stdout: string; status: number | null; group: number }> {
  const child = spawn('bash', [file], { cwd: folder, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  child.stdout!.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr!.on('data', (chunk) => (stdout += String(chunk)));
  const timer = setTimeout(() => stopGroup(child.pid!), timeoutMs);
  return new Promise((resolve) => child.once('close', (status) => (clearTimeout(timer), resolve({ stdout, status, group: child.pid! }))));
}

/** Ends every process of group `group` (what a session left running in the background); none left is fine. */
function stopGroup(group: number): void {
  try {
    process.kill(-group, 'SIGTERM');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** Runs the examples of `examples.file`: every command not listed as not run, in order, in one bash session. */
export async function runDocument(examples: DocumentExamples): Promise<DocumentSession> {
  const markdown = readFileSync(join(PACKAGE_ROOT, examples.file), 'utf8');
  const commands = readmeCommands(markdown);
  const run = commands.filter((command) => !examples.notRun.some(({ pattern }) => pattern.test(command.key)));
  const folder = projectFolder('waybill-doc-');
  const home = join(folder, 'home');
  const sandbox = examples.sandbox === 'started' ? await startSandbox(folder) : undefined;
  const port = sandbox?.port ?? (await freePort());
  const here = (text: string) => text.replaceAll(ADDRESS, `127.0.0.1:${port}`);
  const asQuoted = (text: string) => text.replaceAll(`127.0.0.1:${port}`, ADDRESS).replaceAll(home, '~');
  const results: (CommandResult | undefined)[] = [];
  let group: number | undefined;
  if (run.length > 0) {
    if (examples.sandbox === 'none') throw new Error(`${examples.file}: commands to run, but no sandbox for them`);
    writeFileSync(join(folder, 'doc.sh'), script(run, here));
    const env = { ...withoutWaybillVariables(), HOME: home, PORT: String(port), DOC_NODE: process.execPath, DOC_BIN: join(PACKAGE_ROOT, 'bin', 'waybill.js'), NO_COLOR: '1' };
    const session = await bash('doc.sh', folder, env, 600_000);
    group = session.group;
    if (session.status !== 0) throw new Error(`${examples.file}: the commands did not run to their end (bash exit ${session.status}): ${session.stdout.slice(-2000)}`);
    for (const match of session.stdout.matchAll(/\n@@begin (\d+)@@\n([\s\S]*?)\n@@end \1 (\d+)@@\n/g)) {
      const statuses = [...match[2]!.matchAll(/@@http (\d+)@@/g)].map((found) => Number(found[1]));
      results[Number(match[1])] = { output: asQuoted(match[2]!.replace(/\n?@@http \d+@@\n?/g, '\n')).trim(), exitCode: Number(match[3]), statuses };
    }
  }
  return {
    markdown,
    commands,
    run,
    results,
    banner: sandbox ? asQuoted(sandbox.banner()) : '',
    folder,
    asQuoted,
    here,
    async close() {
      if (group !== undefined) stopGroup(group);
      if (sandbox && sandbox.child.exitCode === null) await new Promise((done) => (sandbox.child.once('exit', done), sandbox.child.kill('SIGTERM')));
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
