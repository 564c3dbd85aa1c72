/**
 * Starts Stoplight Prism (the pinned `@stoplight/prism-cli`) as a child process over
 * `spec/openapi.yaml`, and waits until it answers. Used by `waybill mock` (a mock server)
 * and by `waybill conformance --via-prism` (a validation proxy in front of a target).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { connect, createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { packageFile } from '../spec/package-files.ts';
import { WaybillError } from '../cli/errors.ts';

/** The contract Prism serves or validates against. */
export const SPEC_FILE = packageFile('spec/openapi.yaml');

const require = createRequire(import.meta.url);
const PRISM_BIN = join(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');

/** A running Prism. */
export interface RunningPrism {
  url: string;
  child: ChildProcess;
  /** Stops Prism and resolves once it has exited. */
  stop(): Promise<void>;
}

/** A free TCP port on `host` (Prism takes a port number, not 0). */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** True when a TCP connection to `host:port` opens. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, host, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Resolves once Prism accepts connections (it listens only when ready; a TCP probe leaves
 * no line in its log), or rejects after `timeoutMs`.
 */
async function waitUntilUp(host: string, port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new WaybillError(`Prism exited with code ${child.exitCode} before it was up`, 'tool');
    if (await accepts(host, port)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new WaybillError(`Prism did not listen on ${host}:${port} within ${timeoutMs} ms`, 'tool');
}

/**
 * Runs `prism <mode> ...` on `host:port` (a free port when 0) and resolves once it answers.
 * `inherit` passes Prism's own output through (the mock); otherwise it is kept for errors.
 */
export async function startPrism(options: {
  mode: 'mock' | 'proxy';
  args: string[];
  port?: number;
  host?: string;
  inherit?: boolean;
  timeoutMs?: number;
}): Promise<RunningPrism> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port || (await freePort(host));
  const child = spawn(process.execPath, [PRISM_BIN, options.mode, '--port', String(port), '--host', host, ...options.args], {
    stdio: options.inherit ? ['ignore', 'inherit', 'inherit'] : ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output = (output + chunk).slice(-4000)));
  child.stderr?.on('data', (chunk) => (output = (output + chunk).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://${host}:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    await waitUntilUp(host, port, child, options.timeoutMs ?? 60_000);
  } catch (error) {
    await stop();
    if (error instanceof WaybillError) throw new WaybillError(`${error.message}\n${output.trim()}`, 'tool');
    throw error;
  }
  return { url, child, stop };
}
