/**
 * The register traced both ways: each requirement of `spec/requirements.yaml` with the suite's
 * checks and the client-check scenarios that verify it (their `verifies`), and, for a rule the
 * reference sandbox implements, the places of its code that carry its marker. Nothing here is
 * kept by hand: the checks, scenarios and markers say it, so /docs/requirements and the report's
 * trace cannot drift from them.
 */
import { requirements } from '../../spec/load.ts';
import { type Implementer, implementerOf, type MarkerSite, requirementMarkers } from '../../spec/requirement-markers.ts';
import { checks } from '../checks/index.ts';
import { scenarios } from '../client-check/scenarios/index.ts';
import { integrationRequirements } from '../contract/contract.ts';
import type { RequirementInfo } from '../engine/types/contract.ts';

/** One requirement (as reports cite it) and everything that traces it. */
export interface TracedRequirement extends RequirementInfo {
  implementedBy: Implementer;
  /** Ids of the suite's checks that verify it, in suite order. */
  checks: string[];
  /** Ids of the client-check scenarios that verify it, in run order. */
  scenarios: string[];
  /** The marked places of the sandbox's code, by file in path order (empty unless the sandbox implements it). */
  code: { file: string; lines: number[] }[];
}

/** `sites` grouped by file: each file once, its marked lines in order. */
function byFile(sites: readonly MarkerSite[]): TracedRequirement['code'] {
  const lines = new Map<string, number[]>();
  for (const site of sites) lines.set(site.file, [...(lines.get(site.file) ?? []), site.line]);
  return [...lines].sort(([a], [b]) => a.localeCompare(b)).map(([file, marked]) => ({ file, lines: marked.sort((a, b) => a - b) }));
}

/** Ids of `units` whose `verifies` names `id`. */
function verifying(units: readonly { id: string; verifies: readonly string[] }[], id: string): string[] {
  return units.filter((unit) => unit.verifies.includes(id)).map((unit) => unit.id);
}

/** Every requirement of the register, in register order (seed statements, then decisions), traced through `markers` (the sandbox's own by default). */
export function requirementTrace(markers: ReadonlyMap<string, readonly MarkerSite[]> = requirementMarkers()): TracedRequirement[] {
  return [...integrationRequirements.values()].map((requirement) => ({
    ...requirement,
    implementedBy: implementerOf(requirements.get(requirement.id)!),
    checks: verifying(checks, requirement.id),
    scenarios: verifying(scenarios, requirement.id),
    code: byFile(markers.get(requirement.id) ?? []),
  }));
}
