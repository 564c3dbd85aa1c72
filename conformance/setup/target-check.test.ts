/** The preflight of a run (D66): each way a target can be wrong is one tool error saying what was found and what to do. */
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError, WaybillError } from '../../cli/errors.ts';
import { answer, closedTargetUrl, conformingHandler, type FakeHandler, type FakeTarget, startFakeTarget, testKeys, testProfile } from '../../dev/testing/conformance/fake-target.ts';
import { provisionReference, REFERENCE_ADMIN_TOKEN, type ReferenceTarget } from '../../dev/testing/conformance/reference.ts';
import { API_PREFIX, checkTargetPath, confirmControlPlane, confirmIntegrationApi, targetMismatch } from './target-check.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function fake(handler: FakeHandler): Promise<FakeTarget> {
  const target = await startFakeTarget(handler);
  closers.push(() => target.close());
  return target;
}

async function reference(): Promise<ReferenceTarget> {
  const started = await provisionReference();
  closers.push(() => started.close());
  return started;
}

/** The message the preflight throws for `target`, with the error's class. */
async function refusal(target: string, profile = testProfile()): Promise<[string, string]> {
  const error = await confirmIntegrationApi(target, profile, 2000).then(() => null, (caught: Error) => caught);
  expect(error, 'the preflight let the target through').toBeInstanceOf(WaybillError);
  return [(error as WaybillError).code, (error as Error).message];
}

describe('checkTargetPath', () => {
  it('reads the prefix from the contract', () => {
    expect(API_PREFIX).toBe('/api/v1/integration');
  });

  it.each([
    ['http://127.0.0.1:4100/api/v1/integration', 'http://127.0.0.1:4100'],
    ['http://127.0.0.1:4100/api/v1/integration/', 'http://127.0.0.1:4100'],
    ['http://127.0.0.1:4100/api/v1/integration/orders', 'http://127.0.0.1:4100'],
    ['https://api.example.test/delivery/api/v1/integration', 'https://api.example.test/delivery'],
  ])('refuses %s as a usage error naming the base URL %s', (target, base) => {
    expect(() => checkTargetPath(target)).toThrow(UsageError);
    expect(() => checkTargetPath(target)).toThrow(`--target ${target}: --target is the base URL, without /api/v1/integration (try --target ${base})`);
  });

  it.each(['http://127.0.0.1:4100', 'https://api.example.test/delivery/', 'http://h/api/v1/integrations'])('lets %s through', (target) => {
    expect(() => checkTargetPath(target)).not.toThrow();
  });
});

describe('targetMismatch', () => {
  it('is silent for the same server, however written, and warns for another', () => {
    expect(targetMismatch('http://127.0.0.1:4000', { ...testProfile(), target: 'http://localhost:4000/' })).toBeNull();
    expect(targetMismatch('http://127.0.0.1:4000', { keys: testProfile().keys })).toBeNull();
    expect(targetMismatch('http://127.0.0.1:4100', { ...testProfile(), target: 'http://127.0.0.1:4000' })).toBe(
      "warning: --target http://127.0.0.1:4100 is not the profile's target http://127.0.0.1:4000; the profile's keys and ids are those of http://127.0.0.1:4000",
    );
  });
});

describe('confirmIntegrationApi', () => {
  it("resolves to the tenant whoami names for the profile's full key, sent as the profile says", async () => {
    const target = await fake(conformingHandler());
    expect(await confirmIntegrationApi(target.url, testProfile(), 2000)).toEqual({ tenantId: 'tenant-1' });
    expect(target.requests.map((request) => [request.method, request.url, request.headers['x-api-key']])).toEqual([['GET', '/api/v1/integration/whoami', testKeys.full]]);
  });

  it('connection refused: cannot reach the target', async () => {
    const url = await closedTargetUrl();
    expect(await refusal(url)).toEqual(['tool', `cannot reach --target ${url}: fetch failed (ECONNREFUSED)`]);
  });

  it('404: no API at this base URL, and the origin to try when --target has a path', async () => {
    const target = await fake((_request, response) => answer(response, 404, { type: 'about:blank', title: 'Not Found', status: 404 }));
    expect(await refusal(target.url)).toEqual([
      'tool',
      `--target ${target.url}: GET /api/v1/integration/whoami with the profile's full key answered 404 (problem type about:blank): no Delivery Integration API at this base URL; --target is the URL its /api/v1/integration/… paths start from`,
    ]);
    expect((await refusal(`${target.url}/v2`))[1]).toMatch(new RegExp(`start from \\(or try --target ${target.url}\\)$`));
  });

  it('401: the full key is refused, so the profile is another server\'s (naming the one it was made for)', async () => {
    const target = await fake(conformingHandler({}));
    expect(await refusal(target.url, { ...testProfile(), target: 'http://sandbox.invalid' })).toEqual([
      'tool',
      `--target ${target.url}: GET /api/v1/integration/whoami with the profile's full key answered 401: the full key is refused, so the profile belongs to another sandbox or server (it was made for http://sandbox.invalid); give this target's profile, or --provision one against a waybill sandbox`,
    ]);
  });

  it('another sandbox: the profile of one reference against another is refused 401', async () => {
    const [one, other] = [await reference(), await reference()];
    const [, message] = await refusal(other.server.url, one.profile);
    expect(message).toContain('answered 401: the full key is refused, so the profile belongs to another sandbox or server');
    expect(message).toContain(`(it was made for ${one.server.url})`);
  });

  it.each([
    ['a 200 that is not JSON', (_req: unknown, res: Parameters<FakeHandler>[1]) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>'), 'answered 200 with text/html, not a key\'s identity in JSON: no Delivery Integration API'],
    ['a redirect', (_req: unknown, res: Parameters<FakeHandler>[1]) => res.writeHead(301, { location: 'https://api.example.test/' }).end(), 'answered 301, a redirect to https://api.example.test/: give the base URL the API answers at'],
    ['429', (_req: unknown, res: Parameters<FakeHandler>[1]) => answer(res.setHeader('retry-after', '7'), 429, { type: 'api.rate_limited' }), 'answered 429: the full key is rate limited (Retry-After 7); run again once its limit has refilled'],
  ])('%s: says what it found', async (_name, handler, expected) => {
    const target = await fake(handler as FakeHandler);
    const [code, message] = await refusal(target.url);
    expect(code).toBe('tool');
    expect(message).toContain(expected);
  });

  it.each([
    ['500', 500, 'answered 500 (problem type about:blank), not 200 with the key\'s identity; the checks report it'],
    ['400 (whoami reads no input)', 400, 'answered 400 (problem type about:blank), not 200 with the key\'s identity; the checks report it'],
  ])('%s: a defect of the target, not the setup: the run goes on, with the answer named', async (_name, status, expected) => {
    const target = await fake((_request, response) => answer(response, status, { type: 'about:blank', status }));
    const result = await confirmIntegrationApi(target.url, testProfile(), 2000);
    expect(result).toEqual({ tenantId: undefined, defect: `--target ${target.url}: GET /api/v1/integration/whoami with the profile's full key ${expected}` });
  });
  it('404 from whoami where the order feed answers the key with a page: the target misses whoami, a defect the checks report', async () => {
    const target = await fake((request, response) =>
      request.url?.startsWith('/api/v1/integration/orders') ? answer(response, 200, { items: [], nextCursor: null }) : answer(response, 404, { type: 'about:blank', title: 'Not Found', status: 404 }),
    );
    expect(await confirmIntegrationApi(target.url, testProfile(), 2000)).toEqual({
      tenantId: undefined,
      defect: `--target ${target.url}: GET /api/v1/integration/whoami with the profile's full key answered 404 (problem type about:blank), though its order feed answers the key with a page; the checks report it`,
    });
  });
});

describe('confirmControlPlane', () => {
  it("passes when the profile's sandbox knows the full key's tenant, and does nothing without a sandbox", async () => {
    const { profile, server } = await reference();
    const { tenantId } = await confirmIntegrationApi(server.url, profile, 2000);
    await expect(confirmControlPlane(profile, tenantId, 2000)).resolves.toBeUndefined();
    const { sandbox: _none, ...bare } = profile;
    await expect(confirmControlPlane(bare, tenantId, 2000)).resolves.toBeUndefined();
  });

  it('a refused token reads as every command words it; a sandbox that does not know the tenant is named', async () => {
    const [one, other] = [await reference(), await reference()];
    const { tenantId } = await confirmIntegrationApi(one.server.url, one.profile, 2000);
    const url = `${one.server.url}/sandbox/v1`;
    await expect(confirmControlPlane({ ...one.profile, sandbox: { url, token: 'wrong' } }, tenantId, 2000)).rejects.toThrow(
      `the profile's sandbox ${url}: its control plane refused the admin token (401); give the token that sandbox printed`,
    );
    const elsewhere = `${other.server.url}/sandbox/v1`;
    await expect(confirmControlPlane({ ...one.profile, sandbox: { url: elsewhere, token: REFERENCE_ADMIN_TOKEN } }, tenantId, 2000)).rejects.toThrow(
      `the profile's sandbox ${elsewhere}: GET /tenants/{tenantId} of the full key's tenant answered 404 (problem type about:blank): it does not know the tenant, so it is not the sandbox of --target; fix sandbox.url in the profile`,
    );
  });
});
