/**
 * The sandbox `waybill client-check` starts for itself when no `--target` is given: the
 * reference sandbox in this process, in memory, on a free loopback port, with a fresh admin
 * token and the request log on. Loaded only then, so a run against `--target` never loads the server.
 */
import { consoleLogger } from '../../server/http/log.ts';
import { startSandbox } from '../../server/start/start-sandbox.ts';

/** A sandbox of the run's own. */
export interface OwnSandbox {
  url: string;
  adminToken: string;
  close(): Promise<void>;
}

/** Starts the reference sandbox in memory on 127.0.0.1 and a free port. */
export async function startOwnSandbox(): Promise<OwnSandbox> {
  const { url, adminToken, close } = await startSandbox({ store: ':memory:', log: consoleLogger({ quiet: true }) });
  return { url, adminToken, close: () => close() };
}
