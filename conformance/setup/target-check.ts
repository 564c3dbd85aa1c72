/**
 * Before any check runs, the suite confirms there is a Delivery Integration API at the base
 * URL that takes the profile's full key: `whoami` answers 200 with a JSON body. A wrong
 * target is then one line and exit 2 (a setup mistake), not a thousand failures and exit 1
 * (which blames the implementation). Only the integration API's whoami is asked, so a
 * vendor's server with no control plane is checked the same way (D66).
 */
import { sameBaseUrl } from '../../cli/admin-token-file.ts';
import { adminTokenRefused } from '../../cli/admin-token-refused.ts';
import { UsageError, WaybillError } from '../../cli/errors.ts';
import { operations } from '../../spec/load.ts';
import type { Profile } from '../engine/types/profile.ts';
import { objectBody, problemTypeOf, send } from './http.ts';

/** The path prefix every operation of the integration API shares (`/api/v1/integration`), read from the contract. */
export const API_PREFIX = commonPrefix([...operations.values()].map((operation) => operation.path));

/** The longest run of whole path segments all `paths` start with. */
function commonPrefix(paths: readonly string[]): string {
  const split = paths.map((path) => path.split('/'));
  const shared: string[] = [];
  for (const [index, segment] of split[0]!.entries()) {
    if (segment.startsWith('{') || !split.every((parts) => parts[index] === segment)) break;
    shared.push(segment);
  }
  return shared.join('/');
}

const WHOAMI_PATH = operations.get('whoami')!.path;
const ORDER_FEED_PATH = operations.get('orderFeed')!.path;

/** `url` without the API's prefix and anything after it: the base URL the user meant. */
function baseBefore(url: URL, at: number): string {
  return `${url.origin}${url.pathname.slice(0, at)}`.replace(/\/+$/, '');
}

/**
 * Refuses a `--target` that already holds the API's prefix (`…/api/v1/integration`), which
 * would put every request under `/api/v1/integration/api/v1/integration/…`.
 */
export function checkTargetPath(target: string): void {
  const url = new URL(target);
  const at = `${url.pathname.replace(/\/+$/, '')}/`.indexOf(`${API_PREFIX}/`);
  if (at === -1) return;
  throw new UsageError(`--target ${target}: --target is the base URL, without ${API_PREFIX} (try --target ${baseBefore(url, at)})`);
}

/** The warning when `--target` is not the server the profile names, or null when it is (or the profile names none). */
export function targetMismatch(target: string, profile: Profile): string | null {
  if (profile.target === undefined || sameBaseUrl(target, profile.target)) return null;
  return `warning: --target ${target} is not the profile's target ${profile.target}; the profile's keys and ids are those of ${profile.target}`;
}

/** What to do about a 404 from whoami: the base URL is wrong. */
function notFoundAdvice(target: string): string {
  const url = new URL(target);
  const path = url.pathname.replace(/\/+$/, '');
  const retry = path === '' ? '' : ` (or try --target ${url.origin})`;
  return `no Delivery Integration API at this base URL; --target is the URL its ${API_PREFIX}/… paths start from${retry}`;
}

/** What to do about a full key the target refuses. */
function refusedKeyAdvice(target: string, profile: Profile): string {
  const elsewhere = profile.target !== undefined && !sameBaseUrl(target, profile.target) ? ` (it was made for ${profile.target})` : '';
  return `the profile belongs to another sandbox or server${elsewhere}; give this target's profile, or --provision one against a waybill sandbox`;
}

/**
 * Asks `whoami` at `target` with the profile's full key (as the profile says keys travel) and
 * resolves to the tenant id it names (undefined when the body has none). An answer that says
 * the setup is wrong — no API there (404, 405, a 200 that is no JSON, a redirect), the key
 * refused (401, 403), the key rate limited (429) — is a tool error saying what was found at
 * `where` and what to do; any other answer, or a 404 or 405 from a target whose order feed
 * answers the key with a page, is a defect of the target, returned as `defect` for a warning,
 * and the run goes on so that the checks report it.
 */
export async function confirmIntegrationApi(target: string, profile: Profile, timeoutMs: number, where = `--target ${target}`): Promise<{ tenantId: string | undefined; defect?: string }> {
  const auth = profile.auth ?? { header: 'X-Api-Key', prefix: '' };
  const answer = await send(`${target}${WHOAMI_PATH}`, { headers: { [auth.header]: `${auth.prefix ?? ''}${profile.keys.full}` } }, timeoutMs, `cannot reach ${where}`);
  const found = `${where}: GET ${WHOAMI_PATH} with the profile's full key answered ${answer.status}`;
  const body = objectBody(answer);
  if (answer.status === 200 && body !== undefined) return { tenantId: typeof body['tenantId'] === 'string' ? body['tenantId'] : undefined };
  if (answer.status === 200) {
    throw new WaybillError(`${found} with ${answer.mediaType || 'no Content-Type'}, not a key's identity in JSON: ${notFoundAdvice(target)}`, 'tool');
  }
  if (answer.status === 404 || answer.status === 405) {
    // The API is there when its order feed answers the key with a page: whoami missing is then the target's defect.
    const feed = await send(`${target}${ORDER_FEED_PATH}?limit=1`, { headers: { [auth.header]: `${auth.prefix ?? ''}${profile.keys.full}` } }, timeoutMs, `cannot reach ${where}`);
    if (feed.status === 200 && Array.isArray(objectBody(feed)?.['items'])) return { tenantId: undefined, defect: `${found}${problemTypeOf(answer)}, though its order feed answers the key with a page; the checks report it` };
    throw new WaybillError(`${found}${problemTypeOf(answer)}: ${notFoundAdvice(target)}`, 'tool');
  }
  if (answer.status === 401 || answer.status === 403) {
    throw new WaybillError(`${found}: the full key is refused, so ${refusedKeyAdvice(target, profile)}`, 'tool');
  }
  if (answer.status >= 300 && answer.status < 400) {
    throw new WaybillError(`${found}, a redirect to ${answer.headers.get('location') ?? 'nowhere'}: give the base URL the API answers at`, 'tool');
  }
  if (answer.status === 429) {
    throw new WaybillError(`${found}: the full key is rate limited (Retry-After ${answer.headers.get('retry-after') ?? 'not given'}); run again once its limit has refilled`, 'tool');
  }
  // Any other answer (a 5xx, a 400 to a request with no input) is the target's defect, not the user's setup: the checks report it.
  return { tenantId: undefined, defect: `${found}${problemTypeOf(answer)}, not 200 with the key's identity; the checks report it` };
}

/**
 * With a `sandbox` in the profile, asks its control plane for the full key's tenant: a refused
 * token, or a control plane that does not know the tenant (the profile's sandbox is another
 * server than --target's), is a tool error before the run rather than a failure of every
 * check that drives state.
 */
export async function confirmControlPlane(profile: Profile, tenantId: string | undefined, timeoutMs: number): Promise<void> {
  const { sandbox } = profile;
  if (sandbox === undefined || tenantId === undefined) return;
  const url = sandbox.url.replace(/\/+$/, '');
  const where = `the profile's sandbox ${url}`;
  const answer = await send(`${url}/tenants/${encodeURIComponent(tenantId)}`, { headers: { authorization: `Bearer ${sandbox.token}` } }, timeoutMs, `cannot reach ${where}`);
  if (answer.status === 200) return;
  if (answer.status === 401) throw adminTokenRefused(where);
  const found = `${where}: GET /tenants/{tenantId} of the full key's tenant answered ${answer.status}${problemTypeOf(answer)}`;
  if (answer.status === 404) throw new WaybillError(`${found}: it does not know the tenant, so it is not the sandbox of --target; fix sandbox.url in the profile`, 'tool');
  throw new WaybillError(`${found}: the checks that drive state need it to answer 200`, 'tool');
}
