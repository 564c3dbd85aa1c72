/** The integration API's contract as the runner needs it: routes and hash of spec/openapi.yaml, and the catalog coverage. */
import { operations, specHash } from '../spec/load.ts';
import { catalogCoverage } from './coverage.ts';
import type { Contract } from './types.ts';

/** The contract `waybill conformance` runs against. */
export const integrationContract: Contract = {
  specHash,
  routes: [...operations.values()].map(({ operationId, method, path }) => ({ operationId, method, path })),
  coverage: catalogCoverage,
};
