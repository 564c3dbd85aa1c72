/**
 * The requirements register (`requirements.yaml`): every testable statement of the seeds and
 * every decision, by id, validated against `requirements.schema.json` when loaded.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { loadYaml, readSpecFile } from './documents.ts';

/** How binding a requirement is: the seeds state it, it follows from them, or a decision fills a gap. */
export type RequirementLevel = 'MUST' | 'SHOULD' | 'DECISION';

/** One entry of `requirements.yaml` (its header explains each field). */
export interface RegisterEntry {
  id: string;
  level: RequirementLevel;
  document: '01-integration-api.md' | '02-error-catalog.md' | 'DECISIONS.md';
  section: string;
  quote: string;
  operations: string[];
  via?: 'control-plane';
  testable?: false;
  reason?: string;
  because?: string;
  /** How the suite reads a seed statement that another sentence of the seeds could seem to relax, and why. */
  reading?: string;
  /** Whose code embodies the rule when the reference sandbox does not; left out, the sandbox implements it (spec/requirement-markers.ts). */
  implementedBy?: 'tools' | 'client' | 'contract' | 'none';
}

/**
 * The requirements register (`requirements.yaml`), by id, in register order: every testable
 * statement of the seeds and every decision. Validated against `requirements.schema.json`
 * when loaded, so a malformed entry stops every command rather than skewing a verdict.
 */
export const requirements: ReadonlyMap<string, RegisterEntry> = loadRegister();

function loadRegister(): Map<string, RegisterEntry> {
  const document = loadYaml('requirements.yaml');
  const register = document.value as unknown as { requirements: RegisterEntry[] };
  // The build validated the text it cached; only a register changed since needs it again.
  if (!document.fromCache) validateRegister(register);
  const byId = new Map<string, RegisterEntry>();
  for (const entry of register.requirements) {
    if (byId.has(entry.id)) throw new Error(`spec/requirements.yaml lists '${entry.id}' twice`);
    byId.set(entry.id, entry);
  }
  return byId;
}

function validateRegister(register: { requirements: RegisterEntry[] }): void {
  const schema = JSON.parse(readSpecFile('requirements.schema.json')) as object;
  const validate = new Ajv2020({ allErrors: true }).compile(schema);
  if (!validate(register)) {
    const where = (validate.errors ?? []).slice(0, 5).map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`);
    throw new Error(`spec/requirements.yaml does not match spec/requirements.schema.json: ${where.join('; ')}`);
  }
}

/** Where a requirement stands, as reports cite it: `01-integration-api.md › Section` or `spec/DECISIONS.md D4 — Title`. */
export function citationOf(entry: RegisterEntry): string {
  return entry.document === 'DECISIONS.md' ? `spec/DECISIONS.md ${entry.section}` : `${entry.document} › ${entry.section}`;
}
