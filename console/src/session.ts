/**
 * What the console keeps for this tab only: the admin token and the chosen tenant in
 * sessionStorage (gone when the tab closes), never in a URL, a cookie or localStorage.
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
