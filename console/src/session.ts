/**
 * What the console keeps for this tab only: the admin token and the chosen tenant in
 * sessionStorage (gone when the tab closes), never in a URL, a cookie or localStorage.
 * The one address that carries the token is the banner's sign-in link, `/console#token=…`:
 * a fragment, which no browser sends to a server or puts in a Referer, and which the
 * console takes out of the address bar before anything else runs.
 */
const TOKEN = 'waybill.adminToken';
const TENANT = 'waybill.tenantId';

/** The admin token of this tab, or null before sign-in. */
export const storedToken = (): string | null => sessionStorage.getItem(TOKEN);
/** Keeps the admin token for this tab. */
export const storeToken = (token: string): void => sessionStorage.setItem(TOKEN, token);
/** The tenant this tab works with, or null. */
export const storedTenant = (): string | null => sessionStorage.getItem(TENANT);
/** Keeps (or forgets, with null) the tenant this tab works with. */
export const storeTenant = (tenantId: string | null): void =>
  tenantId ? sessionStorage.setItem(TENANT, tenantId) : sessionStorage.removeItem(TENANT);
/** Forgets everything of this tab: sign-out. */
export const clearSession = (): void => sessionStorage.clear();

// requirement: D64
/**
 * The admin token of a sign-in link (`#token=…`), or null; the fragment is replaced at once
 * by the bare address, so that it stays in no history entry, bookmark or copied link.
 */
export function takeTokenFromAddress(): string | null {
  const match = /^#token=([^&]*)/.exec(location.hash);
  if (match === null) return null;
  history.replaceState(null, '', `${location.pathname}${location.search}`);
  try {
    return decodeURIComponent(match[1]!).trim() || null;
  } catch {
    return null;
  }
}
