/** What `waybill serve` prints when the sandbox is ready (D64), in one process or over several (D83). */
import type { SeededTenant } from './demo.ts';

/** What the sandbox starts with: the tenant it seeded (with keys to show) or the one it found. */
export interface StartingData {
  tenantId: string | null;
  seeded?: { headline: string; keysTitle: string; tenant: SeededTenant };
  note?: string;
}

// requirement: D64
/**
 * What the sandbox prints when it is ready. The console link carries the admin token in its
 * fragment, which a browser keeps to itself (never sent, never a Referer); the console takes
 * it out of the address at once (D64).
 */
export function banner(url: string, db: string, start: StartingData, adminToken: string, tokenFile: string | null, workers: readonly number[] = []): string {
  const fixed = process.env['WAYBILL_ADMIN_TOKEN'] ? 'from WAYBILL_ADMIN_TOKEN' : 'new at every start; set WAYBILL_ADMIN_TOKEN to fix it';
  const left = tokenFile === null
    ? `not left in a file${db === ':memory:' ? ' (--db :memory:)' : ''}; --admin-token-file PATH leaves it for local tools`
    : `left for local tools in ${tokenFile}`;
  const lines = [
    `waybill sandbox listening on ${url}`,
    `  console: ${url}/console#token=${encodeURIComponent(adminToken)}  (signs you in; what follows # never leaves the browser)`,
    `  API reference: ${url}/docs  (documents: ${url}/openapi.yaml, ${url}/sandbox.yaml; health: ${url}/health)`,
    `  integration API: ${url}/api/v1/integration`,
    `  database: ${db}`,
    ...(workers.length > 0 ? [`  workers: ${workers.length} processes on one port (pids ${workers.join(', ')}); one that dies is replaced, SIGTERM drains them all`] : []),
    `  control plane: ${url}/sandbox/v1  admin token: ${adminToken}  (${fixed}; ${left})`,
    `  create a key: curl -s -X POST -H 'Authorization: Bearer ${adminToken}' -H 'Content-Type: application/json' -d '{"name":"my-key","scopes":["orders:read","orders:write","trips:read"]}' '${url}/sandbox/v1/tenants/${start.tenantId ?? '<tenant id>'}/keys'`,
  ];
  if (start.seeded !== undefined) {
    const { headline, keysTitle, tenant } = start.seeded;
    lines.push(
      `  ${headline}`,
      `  ${keysTitle} (shown once; only their hashes are stored):`,
      ...tenant.keys.map((key) => `    ${key.name.padEnd(22)} ${key.secret}  [${key.scopes.join(' ') || 'no scopes'}]`),
      '',
      '  try it:',
      `    curl -s -H 'X-Api-Key: ${tenant.keys[0]!.secret}' '${url}/api/v1/integration/orders?limit=2'`,
    );
  }
  if (start.note !== undefined) lines.push(`  ${start.note}`);
  return `${lines.join('\n')}\n\n`;
}
