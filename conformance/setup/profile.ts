/**
 * The conformance profile: read from a file (`--profile`) or provisioned through the target's
 * sandbox control plane (`--provision`), validated against `profile.schema.json` either way.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { adminTokenRefused } from '../../cli/admin-token-refused.ts';
import { UsageError, WaybillError } from '../../cli/errors.ts';
import { packageFile } from '../../spec/package-files.ts';
import { describeNetworkError } from '../transport/network-error.ts';
import type { Profile } from '../engine/types/profile.ts';
import type { RunReport } from '../engine/types/report.ts';

const profileSchema = JSON.parse(readFileSync(packageFile('conformance/profile.schema.json'), 'utf8')) as object;
const validateProfile = new Ajv2020({ allErrors: true, strict: true }).compile(profileSchema);

/** One Ajv error as `/keys/full must be string`. */
function describeError(error: ErrorObject): string {
  const at = error.instancePath === '' ? '' : error.instancePath;
  if (error.keyword === 'required') return `${at}/${String(error.params['missingProperty'])} is required`;
  if (error.keyword === 'additionalProperties') {
    return `${at}/${String(error.params['additionalProperty'])} is not a field of the profile`;
  }
  return `${at === '' ? '/' : at} ${error.message ?? 'is invalid'}`;
}

/** The problems of `value` as a profile, each naming its field; empty when it is a valid profile. */
export function profileProblems(value: unknown): string[] {
  if (validateProfile(value)) return [];
  return (validateProfile.errors ?? []).map(describeError);
}

/** Checks `value` against the profile schema; throws `makeError('<source>: <field> <problem>')` when it is not one. */
function asProfile(value: unknown, source: string, makeError: (message: string) => Error): Profile {
  const problems = profileProblems(value);
  if (problems.length > 0) throw makeError(`${source}: ${problems.slice(0, 3).join('; ')}`);
  return value as Profile;
}

/** Reads and validates a profile file; throws `UsageError` naming the file and the offending field. */
export function loadProfile(file: string): Profile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'there is no such file' : code === 'EACCES' ? 'this user may not read it' : code === 'EISDIR' ? 'it is a folder, not a file' : (error as Error).message;
    throw new UsageError(`${file}: cannot read the profile: ${why}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file}: not JSON (${(error as Error).message})`);
  }
  // The example profile copied as it is: its placeholders are no keys of any server.
  const placeholders = [...text.matchAll(/"(REPLACE_WITH_[A-Z0-9_]+)"/g)].map((match) => match[1]!);
  if (placeholders.length > 0) {
    throw new UsageError(`${file}: replace the REPLACE_WITH_… values with your server's keys and external ids (${placeholders.length} left, the first ${placeholders[0]}), or --provision a profile against a waybill sandbox`);
  }
  return asProfile(value, file, (message) => new UsageError(message));
}

/**
 * Asks the target's control plane for a fresh profile (`POST <target>/sandbox/v1/profiles`),
 * its tenants named `name` when given (D68). A refusal, an unreachable target or an invalid
 * answer is a tool error (exit 2).
 */
export async function provisionProfile(target: string, adminToken: string, timeoutMs = 30_000, name?: string): Promise<Profile> {
  const url = `${target.replace(/\/+$/, '')}/sandbox/v1/profiles`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(name === undefined ? {} : { name }),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new WaybillError(`provisioning failed: POST ${url}: ${describeNetworkError(error, timeoutMs)}`, 'tool');
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (response.status === 401) throw adminTokenRefused(`--target ${target}`);
  if (response.status < 200 || response.status > 299) {
    const type = typeof body === 'object' && body !== null && 'type' in body ? String(body.type) : 'none';
    const advice = response.status === 404 ? '; --provision needs the control plane of a waybill sandbox at --target (against another server, give --profile FILE)' : '';
    throw new WaybillError(`provisioning failed: POST ${url} answered ${response.status} (problem type ${type})${advice}`, 'tool');
  }
  if (body === undefined) throw new WaybillError(`provisioning failed: POST ${url} answered ${response.status} with a body that is not JSON`, 'tool');
  return asProfile(body, 'provisioned profile', (message) => new WaybillError(`provisioning failed: ${message}`, 'tool'));
}

/**
 * The choices a profile gives, by name only (`tripFields.driver`, `writeScope`), never their
 * values; empty when it gives none and every name defaults to waybill's.
 */
export function profileChoiceNames(profile: Profile): string[] {
  const { tripFields, writeScope } = profile.choices ?? {};
  const fields = Object.keys(tripFields ?? {}).map((member) => `tripFields.${member}`);
  return writeScope === undefined ? fields : [...fields, 'writeScope'];
}

/** The sizes of the profile's pools by name: the order pools as named, trip pools as `trips.<name>`. */
function poolSizes(profile: Profile): Record<string, number> {
  const orders = Object.entries(profile.orders ?? {}).map(([pool, ids]) => [pool, ids?.length ?? 0] as const);
  const trips = Object.entries(profile.trips ?? {}).map(([pool, ids]) => [`trips.${pool}`, ids?.length ?? 0] as const);
  return Object.fromEntries([...orders, ...trips]);
}

/** What the profile supplies, by name only, for the report. */
export function profileSummary(profile: Profile): RunReport['profile'] {
  return {
    keys: Object.keys(profile.keys),
    pools: poolSizes(profile),
    feeds: Object.fromEntries(Object.entries(profile.feeds ?? {}).filter((entry): entry is [string, number] => entry[1] !== undefined)),
    sandbox: profile.sandbox !== undefined,
    choices: profileChoiceNames(profile),
  };
}
