import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UsageError, WaybillError } from '../../cli/errors.ts';
import { main } from '../cli.ts';
import { loadProfile, profileChoiceNames, profileProblems, profileSummary, provisionProfile } from './profile.ts';
import { answer, closedTargetUrl, type FakeTarget, startFakeTarget, testProfile } from '../../dev/testing/conformance/fake-target.ts';

const dir = mkdtempSync(join(tmpdir(), 'waybill-profile-'));

function profileFile(name: string, content: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

const complete = {
  target: 'http://127.0.0.1:4321',
  auth: { header: 'X-Api-Key', prefix: '' },
  keys: {
    full: 'a',
    ordersRead: 'b',
    tripsRead: 'c',
    noScopes: 'd',
    otherTenant: 'e',
    revoked: 'f',
    rateLimited: { key: 'g', perMinute: 5 },
    suspendedTenant: 'h',
  },
  orders: { payable: ['ext-1'], cancellable: ['ext-2'], notCancellable: ['ext-3'], archivable: ['ext-4'], onTrip: ['ext-6'], otherTenant: ['ext-5'] },
  trips: { otherTenant: ['trip-1', 'trip-2'] },
  feeds: { minOrders: 120, minTrips: 120 },
  choices: {
    tripFields: { id: 'tripId', shortCode: 'code', warehouse: 'depotId', driver: 'driverRef', vehicle: 'vehicleRef', stopCount: 'stops', plannedAt: 'plannedFor', updatedAt: 'modifiedAt' },
    writeScope: 'orders:manage',
  },
  sandbox: { url: 'http://127.0.0.1:4321/sandbox/v1', token: 'admin' },
};

describe('profile schema', () => {
  it('accepts a profile with every field and one with keys.full alone', () => {
    expect(profileProblems(complete)).toEqual([]);
    expect(profileProblems({ keys: { full: 'k' } })).toEqual([]);
  });

  it('accepts the new fields on their own: an onTrip pool, trips.otherTenant, partial or empty choices', () => {
    const withKey = (rest: object) => ({ keys: { full: 'k' }, ...rest });
    expect(profileProblems(withKey({ orders: { onTrip: ['ext-1', 'ext-2'] } }))).toEqual([]);
    expect(profileProblems(withKey({ trips: { otherTenant: ['trip-1'] } }))).toEqual([]);
    expect(profileProblems(withKey({ trips: {} }))).toEqual([]);
    expect(profileProblems(withKey({ choices: {} }))).toEqual([]);
    expect(profileProblems(withKey({ choices: { tripFields: { driver: 'driverRef' } } }))).toEqual([]);
    expect(profileProblems(withKey({ choices: { writeScope: 'orders:manage' } }))).toEqual([]);
  });

  it.each([
    [{ keys: { full: 42 } }, '/keys/full must be string'],
    [{}, '/keys is required'],
    [{ keys: {} }, '/keys/full is required'],
    [{ keys: { full: '' } }, '/keys/full must NOT have fewer than 1 characters'],
    [{ keys: { full: 'k', rateLimited: { key: 'r' } } }, '/keys/rateLimited/perMinute is required'],
    [{ keys: { full: 'k', rateLimited: { key: 'r', perMinute: 0 } } }, '/keys/rateLimited/perMinute must be >= 1'],
    [{ keys: { full: 'k' }, orders: { payable: ['ok', ''] } }, '/orders/payable/1 must NOT have fewer than 1 characters'],
    [{ keys: { full: 'k' }, orders: { payable: 'ext-1' } }, '/orders/payable must be array'],
    [{ keys: { full: 'k' }, sandbox: { url: 'ftp://x' , token: 't' } }, '/sandbox/url must match pattern'],
    [{ keys: { full: 'k' }, sandbox: { url: 'http://x' } }, '/sandbox/token is required'],
    [{ keys: { full: 'k', fulll: 'x' } }, '/keys/fulll is not a field of the profile'],
    [{ keys: { full: 'k' }, orders: { onTrip: 'ext-1' } }, '/orders/onTrip must be array'],
    [{ keys: { full: 'k' }, orders: { onTrip: ['ext-1', 'ext-1'] } }, '/orders/onTrip must NOT have duplicate items'],
    [{ keys: { full: 'k' }, orders: { onTrip: [''] } }, '/orders/onTrip/0 must NOT have fewer than 1 characters'],
    [{ keys: { full: 'k' }, orders: { onTrips: ['ext-1'] } }, '/orders/onTrips is not a field of the profile'],
    [{ keys: { full: 'k' }, trips: ['trip-1'] }, '/trips must be object'],
    [{ keys: { full: 'k' }, trips: { otherTenant: 'trip-1' } }, '/trips/otherTenant must be array'],
    [{ keys: { full: 'k' }, trips: { otherTenant: ['trip-1', 'trip-1'] } }, '/trips/otherTenant must NOT have duplicate items'],
    [{ keys: { full: 'k' }, trips: { otherTenant: [''] } }, '/trips/otherTenant/0 must NOT have fewer than 1 characters'],
    [{ keys: { full: 'k' }, trips: { mine: ['trip-1'] } }, '/trips/mine is not a field of the profile'],
    [{ keys: { full: 'k' }, choices: 'waybill' }, '/choices must be object'],
    [{ keys: { full: 'k' }, choices: { tripNames: {} } }, '/choices/tripNames is not a field of the profile'],
    [{ keys: { full: 'k' }, choices: { tripFields: { status: 'state' } } }, '/choices/tripFields/status is not a field of the profile'],
    [{ keys: { full: 'k' }, choices: { tripFields: { driverId: 'driverRef' } } }, '/choices/tripFields/driverId is not a field of the profile'],
    [{ keys: { full: 'k' }, choices: { tripFields: { driver: '' } } }, '/choices/tripFields/driver must NOT have fewer than 1 characters'],
    [{ keys: { full: 'k' }, choices: { tripFields: { plannedAt: 7 } } }, '/choices/tripFields/plannedAt must be string'],
    [{ keys: { full: 'k' }, choices: { writeScope: '' } }, '/choices/writeScope must NOT have fewer than 1 characters'],
    [{ keys: { full: 'k' }, choices: { writeScope: ['orders:write'] } }, '/choices/writeScope must be string'],
  ])('%j → %s', (profile, problem) => {
    expect(profileProblems(profile).join('; ')).toContain(problem);
  });
});

describe('profileSummary', () => {
  it('names every pool with its size, the trip pool as trips.otherTenant, and no secret', () => {
    const summary = profileSummary(complete);
    expect(summary).toEqual({
      keys: ['full', 'ordersRead', 'tripsRead', 'noScopes', 'otherTenant', 'revoked', 'rateLimited', 'suspendedTenant'],
      pools: { payable: 1, cancellable: 1, notCancellable: 1, archivable: 1, onTrip: 1, otherTenant: 1, 'trips.otherTenant': 2 },
      feeds: { minOrders: 120, minTrips: 120 },
      sandbox: true,
      choices: profileChoiceNames(complete),
    });
    expect(summary.choices.length).toBeGreaterThan(0);
    const text = JSON.stringify(summary);
    for (const secret of ['admin', 'ext-1', 'trip-1', 'orders:manage', 'driverRef']) expect(text).not.toContain(`"${secret}"`);
  });

  it('summarises a profile without the new fields as before', () => {
    expect(profileSummary({ keys: { full: 'k' } })).toEqual({ keys: ['full'], pools: {}, feeds: {}, sandbox: false, choices: [] });
    expect(profileSummary({ keys: { full: 'k' }, orders: { payable: ['a', 'b'] } }).pools).toEqual({ payable: 2 });
  });
});

describe('profileChoiceNames', () => {
  it('names the choices given, never their values', () => {
    expect(profileChoiceNames(complete)).toEqual([
      'tripFields.id', 'tripFields.shortCode', 'tripFields.warehouse', 'tripFields.driver', 'tripFields.vehicle',
      'tripFields.stopCount', 'tripFields.plannedAt', 'tripFields.updatedAt', 'writeScope',
    ]);
    expect(profileChoiceNames({ keys: { full: 'k' }, choices: { tripFields: { driver: 'driverRef' } } })).toEqual(['tripFields.driver']);
    expect(profileChoiceNames({ keys: { full: 'k' }, choices: { writeScope: 'orders:manage' } })).toEqual(['writeScope']);
  });

  it('is empty when the profile gives no choices', () => {
    expect(profileChoiceNames({ keys: { full: 'k' } })).toEqual([]);
    expect(profileChoiceNames({ keys: { full: 'k' }, choices: {} })).toEqual([]);
  });
});

describe('loadProfile', () => {
  it('reads a valid file', () => {
    expect(loadProfile(profileFile('ok.json', complete)).keys.full).toBe('a');
  });

  it('names the file and the field of a bad profile', () => {
    const file = profileFile('profile.json', { keys: { full: 42 } });
    expect(() => loadProfile(file)).toThrow(UsageError);
    expect(() => loadProfile(file)).toThrow(`${file}: /keys/full must be string`);
  });

  it('is a usage error for bad JSON and an unreadable file', () => {
    expect(() => loadProfile(profileFile('bad.json', '{ "keys": '))).toThrow(/bad\.json: not JSON/);
    expect(() => loadProfile(join(dir, 'missing.json'))).toThrow(/missing\.json: cannot read the profile: there is no such file$/);
  });
});

describe('main with a bad profile', () => {
  afterEach(() => vi.restoreAllMocks());

  it('exits 2 and prints the offending field', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const file = profileFile('profile.json', { keys: { full: 42 } });
    expect(await main(['--target', 'http://127.0.0.1:9', '--profile', file])).toBe(2);
    expect(stderr.mock.calls.map(([text]) => String(text)).join('')).toContain('/keys/full must be string');
  });
});

describe('provisionProfile', () => {
  let target: FakeTarget | undefined;
  afterEach(async () => {
    await target?.close();
    target = undefined;
  });

  it('POSTs to /sandbox/v1/profiles with the bearer token and returns the validated profile', async () => {
    target = await startFakeTarget((_request, response) => answer(response, 201, testProfile()));
    const profile = await provisionProfile(`${target.url}/`, 'admin-secret');
    expect(profile.keys.full).toBe(testProfile().keys.full);
    expect(target.requests[0]).toMatchObject({ method: 'POST', url: '/sandbox/v1/profiles' });
    expect(target.requests[0]?.headers.authorization).toBe('Bearer admin-secret');
  });

  it('is a tool error naming the status and problem type of a refusal', async () => {
    target = await startFakeTarget((_request, response) => answer(response, 403, { type: 'about:blank', title: 'Forbidden', status: 403 }));
    const refusal = provisionProfile(target.url, 'wrong');
    await expect(refusal).rejects.toThrow(WaybillError);
    await expect(provisionProfile(target.url, 'wrong')).rejects.toThrow(/answered 403 \(problem type about:blank\)/);
  });

  it('is a tool error when the answer is not a valid profile', async () => {
    target = await startFakeTarget((_request, response) => answer(response, 200, { keys: {} }));
    await expect(provisionProfile(target.url, 't')).rejects.toThrow('provisioning failed: provisioned profile: /keys/full is required');
  });

  it('is a tool error when nothing listens', async () => {
    const url = await closedTargetUrl();
    await expect(provisionProfile(url, 't')).rejects.toThrow(`provisioning failed: POST ${url}/sandbox/v1/profiles: fetch failed (ECONNREFUSED)`);
  });
});

describe('conformance/profile.example.json', () => {
  const file = fileURLToPath(new URL('../profile.example.json', import.meta.url));

  it('is a valid profile, with placeholders for every key', () => {
    const example = JSON.parse(readFileSync(file, 'utf8')) as { keys: Record<string, string | { key: string }> };
    expect(profileProblems(example)).toEqual([]);
    // Used as it is, it is refused, saying what to replace.
    expect(() => loadProfile(file)).toThrow(`${file}: replace the REPLACE_WITH_… values with your server's keys and external ids (8 left, the first REPLACE_WITH_A_KEY_WITH_ORDERS_READ_ORDERS_WRITE_AND_TRIPS_READ), or --provision a profile against a waybill sandbox`);
    for (const entry of Object.values(example.keys)) expect(typeof entry === 'string' ? entry : entry.key).toMatch(/^REPLACE_WITH_/);
  });
});
