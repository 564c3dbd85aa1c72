/** The dispatcher as a user runs it: help, version, unknown commands and each subcommand's own help. */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('./waybill.js', import.meta.url));
const run = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 30_000 });

describe('waybill', () => {
  it.each([['--help'], ['conformance', '--help']])('stops quietly when its reader closes the pipe first: waybill %s | head', async (...args) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    // The reading end closes before anything is written, so every write meets EPIPE.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('lists every subcommand with --help and exits 0', () => {
    const { status, stdout } = run('--help');
    expect(status).toBe(0);
    for (const name of ['serve', 'mock', 'conformance', 'fixtures']) expect(stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
  });

  it('prints the package version', () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(run('--version').stdout.trim()).toBe(version);
  });

  it('refuses an unknown command, and no command, with exit 2', () => {
    const unknown = run('deploy');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command 'deploy'/);
    expect(run().status).toBe(2);
  });

  it.each(['serve', 'mock', 'wait', 'conformance', 'fixtures'])('gives %s its own --help with examples, exit 0', (name) => {
    const { status, stdout } = run(name, '--help');
    expect(status).toBe(0);
    expect(stdout).toMatch(new RegExp(`waybill ${name}`));
    expect(stdout).toMatch(/Examples?:/);
  });

  it('prints a command\'s own help for `waybill help <command>`', () => {
    const { status, stdout } = run('help', 'conformance');
    expect(status).toBe(0);
    expect(stdout).toContain('Usage: waybill conformance [options]');
    expect(stdout).not.toContain('Commands:');
  });
});
