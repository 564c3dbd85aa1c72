/**
 * The sandbox a client-check stages its scenarios in, the one way `waybill client-check` and
 * `waybill replay` both choose it: a running one at `--target` (its admin token from
 * `--admin-token`, env WAYBILL_ADMIN_TOKEN or the local token file), or one of its own in memory.
 */
import { ADMIN_TOKEN_FILE, readAdminTokenFor } from '../../cli/admin-token-file.ts';
import { adminTokenRefused } from '../../cli/admin-token-refused.ts';
import { UsageError, WaybillError } from '../../cli/errors.ts';
import { describeNetworkError } from '../transport/network-error.ts';
import { assertAnswers } from '../setup/http.ts';

/** A sandbox to stage in, and how to let it go once the run ends. */
export interface StageSandbox {
  target: string;
  adminToken: string;
  close(): Promise<void>;
}

/** The sandbox the options name: the target and its admin token, or null for a sandbox of its own; `command` names the command in its messages. */
export function givenSandbox(options: { target?: string; adminToken?: string }, command: string): { target: string; adminToken: string } | null {
  if (options.target === undefined) {
    if (options.adminToken !== undefined) throw new UsageError(`--admin-token is only used with --target (without it, ${command} starts a sandbox of its own)`);
    return null;
  }
  let url: URL;
  try {
    url = new URL(options.target);
  } catch {
    throw new UsageError(`--target ${options.target}: not a URL (expected http://host:port)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--target ${options.target}: must be an http or https URL`);
  const adminToken = options.adminToken ?? (process.env['WAYBILL_ADMIN_TOKEN'] || readAdminTokenFor(options.target));
  if (adminToken === undefined || adminToken === '') throw new UsageError(`--target needs the sandbox's admin token: --admin-token T or env WAYBILL_ADMIN_TOKEN (a local waybill serve leaves it in ${ADMIN_TOKEN_FILE})`);
  return { target: options.target.replace(/\/+$/, ''), adminToken };
}

/** With nothing listening at `--target`, that is the first thing to say, before a missing admin token. */
export async function assertTargetAnswers(options: { target?: string; adminToken?: string }): Promise<void> {
  if (options.target !== undefined && /^https?:\/\//i.test(options.target) && options.adminToken === undefined && !process.env['WAYBILL_ADMIN_TOKEN'] && readAdminTokenFor(options.target) === undefined) {
    await assertAnswers(options.target.replace(/\/+$/, ''));
  }
}

/** Fails fast, as a tool error, unless `target`'s control plane answers and accepts the admin token. */
export async function assertControlPlane(target: string, adminToken: string): Promise<void> {
  let status: number;
  try {
    const response = await fetch(`${target}/sandbox/v1/tenants`, { headers: { authorization: `Bearer ${adminToken}` }, signal: AbortSignal.timeout(10_000) });
    await response.arrayBuffer();
    status = response.status;
  } catch (error) {
    throw new WaybillError(`cannot reach --target ${target}: ${describeNetworkError(error, 10_000)}`, 'tool');
  }
  if (status === 401) throw adminTokenRefused(`--target ${target}`);
  if (status !== 200) throw new WaybillError(`--target ${target}: GET /sandbox/v1/tenants answered ${status}; client-check needs a waybill sandbox's control plane`, 'tool');
}

/** The given sandbox once its control plane takes the token, or a sandbox of its own (`null`), started now. */
export async function openStageSandbox(given: { target: string; adminToken: string } | null): Promise<StageSandbox> {
  if (given !== null) {
    await assertControlPlane(given.target, given.adminToken);
    return { ...given, close: async () => undefined };
  }
  // Loaded only now: a run against --target never loads the server.
  const { startOwnSandbox } = await import('./own-sandbox.ts');
  const own = await startOwnSandbox();
  return { target: own.url, adminToken: own.adminToken, close: () => own.close() };
}
