/**
 * What a run against a target needs around its checks, the one way `waybill conformance` and
 * `waybill replay` both do it: the target's URL checked, the suite's checks, the profile (a
 * file, or provisioned with the admin token), its pools read for the checks chosen, a Prism
 * proxy when asked, the tenants archived once it ends (D68), and Ctrl-C (D55).
 */
import { ADMIN_TOKEN_FILE, adminTokenUrls, readAdminTokenFor } from '../../cli/admin-token-file.ts';
import { surviveBrokenPipes } from '../../cli/broken-pipe.ts';
import { counted, seconds } from '../../cli/counted.ts';
import { UsageError } from '../../cli/errors.ts';
import { onInterrupt } from '../../cli/interrupt.ts';
import { SPEC_FILE, startPrism, type RunningPrism } from '../../mock/prism.ts';
import { contractChecks } from '../checks/contract.ts';
import { fuzzCheck } from '../checks/fuzz.ts';
import { checks } from '../checks/index.ts';
import { integrationContract } from '../contract/contract.ts';
import type { RunOptions } from '../engine/runner.ts';
import type { Check } from '../engine/types/check.ts';
import type { ExchangeRecord } from '../engine/types/exchange.ts';
import type { Profile } from '../engine/types/profile.ts';
import { assertAnswers } from './http.ts';
import { prepareTarget, type ProfileSource } from './prepare-target.ts';
import { loadProfile, provisionProfile } from './profile.ts';
import { checkTargetPath } from './target-check.ts';
import { archiveTenants, profileTenants, tenantsCreatedBy } from './tenant-cleanup.ts';
import type { Secret } from '../transport/redaction.ts';

/** Refuses a `--target` that is no http(s) base URL, before anything is sent. */
export function checkTargetUrl(target: string): void {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new UsageError(`--target ${target}: not a URL (expected http://host:port or https://…)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    // `localhost:4000` parses as the scheme `localhost:`: the user meant a host and port.
    const meant = /^[\w.-]+:\d+(\/.*)?$/.test(target) ? ` (try --target http://${target})` : '';
    throw new UsageError(`--target ${target}: must be an http or https URL${meant}`);
  }
  checkTargetPath(target);
}

/** The suite's checks: every server check, Prism's when the run goes through it, and the fuzz family when it draws cases. */
export function conformanceSuite(options: { viaPrism?: boolean; fuzz: number }): Check[] {
  return [...checks, ...(options.viaPrism ? contractChecks : []), ...(options.fuzz > 0 ? [fuzzCheck(options.fuzz)] : [])];
}

/** Where a run's profile comes from: a file, or the target's control plane with this admin token. */
export type ProfileOrigin = { file: string } | { adminToken: string };

/**
 * `--profile FILE` or `--provision` (with `--admin-token`, else env WAYBILL_ADMIN_TOKEN, else
 * the local token file's entry for `target`): exactly one, else a usage error; `neither` says
 * what to give when both are missing.
 */
export async function profileOrigin(options: { profile?: string; provision?: boolean; adminToken?: string }, target: string, neither: string): Promise<ProfileOrigin> {
  if (options.profile === undefined && !options.provision) throw new UsageError(neither);
  if (!options.provision) {
    if (options.adminToken !== undefined) throw new UsageError('--admin-token is only used with --provision');
    return { file: options.profile as string };
  }
  const adminToken = options.adminToken ?? (process.env['WAYBILL_ADMIN_TOKEN'] || readAdminTokenFor(target));
  if (adminToken === undefined || adminToken === '') {
    // A missing token matters only once something answers there.
    await assertAnswers(target);
    const urls = adminTokenUrls();
    const file = urls.length === 0
      ? `a local \`waybill serve\` leaves it in ${ADMIN_TOKEN_FILE} for its own URL`
      : `${ADMIN_TOKEN_FILE} has a token for ${urls.join(', ')} only, not for ${target}`;
    throw new UsageError(`--provision needs the admin token: --admin-token T or env WAYBILL_ADMIN_TOKEN (${file})`);
  }
  return { adminToken };
}

/** Provisions a profile at `target`, saying so on stderr first and how long it took after: it is a few seconds in which nothing else is printed. */
export async function provision(target: string, adminToken: string, timeoutMs: number, label: string): Promise<Profile> {
  const started = performance.now();
  process.stderr.write(`provisioning a conformance profile at ${target} (three tenants, their keys and orders)…\n`);
  const profile = await provisionProfile(target, adminToken, Math.max(timeoutMs, 30_000), label);
  process.stderr.write(`provisioned in ${seconds(performance.now() - started)}\n`);
  return profile;
}

/** The profile `origin` gives: the file read and checked, or one provisioned at `target` under `label`. */
export async function profileFrom(origin: ProfileOrigin, target: string, timeoutMs: number, label: string): Promise<Profile> {
  return 'file' in origin ? loadProfile(origin.file) : provision(target, origin.adminToken, timeoutMs, label);
}

/** The profile with the pools the `selected` checks need cut to the ids still usable, once the target is confirmed (prepare-target.ts); its warnings go to stderr. */
export async function readPools(target: string, profile: Profile, selected: readonly Check[], timeoutMs: number, source: ProfileSource): Promise<Profile> {
  const prepared = await prepareTarget(target, profile, selected, timeoutMs, source);
  for (const warning of prepared.warnings) process.stderr.write(`waybill: ${warning}\n`);
  return prepared.profile;
}

/** What a run that ended leaves to archive (D68). */
export interface RunLeftovers {
  profile: Profile;
  target: string;
  timeoutMs: number;
  /** True when the profile was provisioned for this run. */
  provisioned: boolean;
  /** The file a provisioned profile was saved to, whose tenants stay for another run. */
  savedProfile?: string;
  keepTenants?: boolean;
  exchanges: readonly ExchangeRecord[];
}

/**
 * Archives what the run created once it ends (D68), unless --keep-tenants: the tenants its
 * checks created through the control plane and, for a provisioned profile that was not
 * saved for another run, the profile's own. Says on stderr what it did; a failure is a
 * warning, never the run's exit code.
 */
export async function archiveRunTenants(run: RunLeftovers): Promise<void> {
  const { profile, target, timeoutMs } = run;
  if (run.keepTenants || profile.sandbox === undefined) return;
  try {
    const created = tenantsCreatedBy(run.exchanges, profile.sandbox.url);
    const own = run.provisioned && run.savedProfile === undefined ? await profileTenants(target, profile, timeoutMs) : [];
    const tenants = [...own, ...created];
    if (tenants.length === 0) return;
    const { archived, failed } = await archiveTenants(profile.sandbox, tenants, timeoutMs);
    const kept = run.provisioned && run.savedProfile !== undefined ? `; the profile's tenants stay, saved in ${run.savedProfile}` : '';
    process.stderr.write(`archived the ${counted(archived, 'tenant')} this run created${kept} (--keep-tenants keeps them)${failed.length === 0 ? '' : `; could not archive ${failed.join(', ')}`}\n`);
  } catch (error) {
    process.stderr.write(`waybill: warning: the run's tenants were not archived: ${(error as Error).message}\n`);
  }
}

/**
 * A Prism validation proxy in front of `target`. Without `--errors`: with it Prism answers
 * invalid requests itself (422) instead of forwarding them, and the suite's deliberate
 * invalid requests would never reach the target; violations arrive in `sl-violations`.
 */
export async function startValidationProxy(target: string): Promise<RunningPrism> {
  process.stderr.write(`starting a Prism validation proxy in front of ${target}…\n`);
  const prism = await startPrism({ mode: 'proxy', args: ['-v', 'error', SPEC_FILE, target] });
  process.stderr.write(`Prism proxy at ${prism.url}; socket-level checks go straight to ${target}\n`);
  return prism;
}

/** The part of a run's options that says where it goes: `target` itself, or through `prism` for all but the socket-level requests; the report names `target` either way. */
export function againstTarget(profile: Profile, target: string, prism: RunningPrism | null): Pick<RunOptions, 'profile' | 'target' | 'rawTarget' | 'reportedTarget' | 'contract'> {
  return { profile: { ...profile, target }, target: prism?.url ?? target, rawTarget: target, reportedTarget: target, contract: integrationContract };
}

/** The run's secrets that are not in the profile: the admin token it provisioned with, redacted as `$WAYBILL_ADMIN_TOKEN`. */
export function adminTokenSecrets(adminToken: string | undefined): Secret[] {
  return adminToken === undefined ? [] : [{ value: adminToken, name: 'adminToken', envVar: 'WAYBILL_ADMIN_TOKEN' }];
}

/**
 * Runs `command` with the signal Ctrl-C aborts (D55): the first SIGINT or SIGTERM prints
 * `whatNow`, a second quits at once. Interrupted together with the reader of its output
 * (`… | tee log`), the command still goes on to its end (reports written, tenants archived).
 */
export async function interruptible(whatNow: string, command: (interrupt: AbortSignal) => Promise<number>): Promise<number> {
  surviveBrokenPipes();
  const interrupt = new AbortController();
  const stopWatching = onInterrupt(interrupt, whatNow);
  try {
    return await command(interrupt.signal);
  } finally {
    stopWatching();
  }
}
