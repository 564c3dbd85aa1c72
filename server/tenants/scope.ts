/** Every control-plane operation under `/tenants/{tenantId}`: the tenant must exist (D30), and writes need it Active (D22, D31). */
import type { NextFunction, Request, Response } from 'express';
import { Refusal } from '../domain/refusal.ts';
import { assertWritable } from './lifecycle.ts';
import { aboutBlank } from '../http/problem.ts';
import type { Tenants } from './store.ts';
import type { TenantVersions } from './versions.ts';
import { paramsOf, refusalProblem } from '../control-plane/respond.ts';

// requirement: D22
// requirement: D31
// requirement: D81
/**
 * Middleware: 404 `about:blank` for an unknown tenant; for a write, 409 when the tenant is
 * Suspended or Archived. With `versions` (processes sharing a PostgreSQL database), this
 * process's caches of the tenant are read again first if another process changed it (D81).
 */
export function makeTenantScope(options: { tenants: Tenants; writes: boolean; versions?: TenantVersions }) {
  return async function tenantScope(_req: Request, res: Response, next: NextFunction): Promise<void> {
    const tenantId = paramsOf(res)['tenantId']!;
    await options.versions?.check(tenantId);
    const tenant = await options.tenants.get(tenantId);
    if (tenant === undefined) {
      next(aboutBlank(404, `No tenant ${tenantId}.`));
      return;
    }
    try {
      if (options.writes) assertWritable(tenant.state);
    } catch (error) {
      next(error instanceof Refusal ? refusalProblem(error) : error);
      return;
    }
    next();
  };
}
