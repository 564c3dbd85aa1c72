/**
 * The servers under test, each a child process that prints its URL when it listens. Every
 * child started is tracked, so the driver can kill whatever is left on any exit.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** A server child that is listening. */
export interface ServerChild {
  name: string;
  url: string;
  pid: number;
  /** Asks the child to exit (SIGTERM), then kills it if it has not within 5 s. */
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();

/** Kills every child still running (safe to call from an `exit` handler). */
export function killChildren(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

/** Starts `node --import tsx dev/bench/<script> ...args` and resolves once it printed its URL. */
export function startChild(name: string, script: string, args: string[], options: { nodeArgs?: string[] } = {}): Promise<ServerChild> {
  const file = fileURLToPath(new URL(script, import.meta.url));
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', file, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  exited.then(() => running.delete(child));
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));

  return new Promise((resolve, reject) => {
    let stdout = '';
    const onData = (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /^(http:\/\/\S+)\n/m.exec(stdout)?.[1];
      if (url === undefined) return;
      child.stdout!.off('data', onData);
      child.off('exit', onEarlyExit);
      resolve({
        name,
        url,
        pid: child.pid!,
        stop: async () => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
          child.kill('SIGTERM');
          await exited;
          clearTimeout(timer);
        },
      });
    };
    const onEarlyExit = (code: number | null) => reject(new Error(`${name} exited (${code}) before listening:\n${stderr}`));
    child.stdout!.on('data', onData);
    child.once('exit', onEarlyExit);
  });
}
