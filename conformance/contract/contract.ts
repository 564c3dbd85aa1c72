/** The integration API's contract as the runner needs it: routes and hash of spec/openapi.yaml, its requirements register, and the catalog coverage. */
import { citationOf, operations, requirements, specHash } from '../../spec/load.ts';
import { catalogCoverage } from '../engine/coverage.ts';
import type { Contract, RequirementInfo } from '../engine/types/contract.ts';

/** The register of spec/requirements.yaml as the runner sees it. */
export const integrationRequirements: ReadonlyMap<string, RequirementInfo> = new Map(
  [...requirements.values()].map((entry) => [
    entry.id,
    {
      id: entry.id,
      level: entry.level,
      source: citationOf(entry),
      quote: entry.quote,
      testable: entry.testable !== false,
      ...(entry.reason === undefined ? {} : { reason: entry.reason }),
      ...(entry.via === undefined ? {} : { via: entry.via }),
    },
  ]),
);

/** The contract `waybill conformance` runs against. */
export const integrationContract: Contract = {
  specHash,
  routes: [...operations.values()].map(({ operationId, method, path }) => ({ operationId, method, path })),
  requirements: integrationRequirements,
  coverage: catalogCoverage,
};
