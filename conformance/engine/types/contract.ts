/**
 * What the runner needs from the contract without knowing it: routes, the requirements register
 * and the catalog coverage of a run.
 */
import type { Level } from './check.ts';
import type { ExchangeRecord } from './exchange.ts';
import type { Profile } from './profile.ts';

/** Where a catalog code stands after the run. */
export type CoverageState = 'exercised' | 'expected-not-seen' | 'not-reachable';

/** One catalog code in the report. */
export interface CoverageEntry {
  code: string;
  status: number;
  group: string;
  reach: string;
  state: CoverageState;
  /** Answers that carried the code with its status and a valid body. */
  seen: number;
  /** Answers that carried the code with another status or an invalid body. */
  mismatched: number;
}

/** A statement of the register as the runner sees it: no knowledge of which API it belongs to. */
export interface RequirementInfo {
  id: string;
  level: Level;
  /** Where it stands: `01-integration-api.md › Section` or `spec/DECISIONS.md D4 — Title`. */
  source: string;
  /** The exact sentence or table row. */
  quote: string;
  /** False when no HTTP exchange can show it (`reason` says why). */
  testable: boolean;
  reason?: string;
  /** Only a sandbox control plane reaches it. */
  via?: 'control-plane';
  /**
   * Where it comes from, when its level does not say: a sentence of spec/DECISIONS.md held at
   * SHOULD (client-check's `client.*` rules) is still a decision, counted among the decisions.
   * Default: `decision` at level DECISION, else `seed`.
   */
  origin?: 'seed' | 'decision';
}

/** A route of the contract, for naming the operation an exchange hit. */
export interface Route {
  operationId: string;
  method: string;
  /** Path template with `{name}` segments. */
  path: string;
}

/**
 * What the runner needs from the contract without knowing it: the spec's hash, its routes,
 * its requirements register, and the catalog coverage of a run's exchanges.
 */
export interface Contract {
  specHash: string;
  routes: readonly Route[];
  /** The register, in its own order; checks' `verifies` name its ids. */
  requirements: ReadonlyMap<string, RequirementInfo>;
  coverage(exchanges: readonly ExchangeRecord[], profile: Profile): CoverageEntry[];
}
