// Compares spec/errors.yaml with the seed error catalog (shared/seeds/02-error-catalog.md), and
// every seed statement of spec/requirements.yaml with the seed section it quotes.
// Usage: tsx dev/scripts/check-seeds.ts [seeds dir or catalog file]   (or WAYBILL_SEEDS_DIR)
// Exit 0 = they match, 1 = they differ, 2 = the seed file is absent.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'yaml';

/** One code of the catalog, as the seed lists it and as errors.yaml stores it. */
export interface CatalogCode {
  code: string;
  status: number;
  group: string;
  meaning: string;
}

/** What the seed markdown yields: its codes in order and the total it states. */
export interface SeedCatalog {
  codes: CatalogCode[];
  statedTotal: number | null;
}

const CATALOG_FILE = '02-error-catalog.md';
const NO_MEANING = '(no meaning text listed)';

/** Parses every `| code | status | meaning |` row under each `###` heading of the seed markdown. */
export function parseSeedCatalog(markdown: string): SeedCatalog {
  const codes: CatalogCode[] = [];
  let group: string | null = null;
  for (const line of markdown.split(/\r?\n/)) {
    const heading = /^###\s+(.+?)\s*$/.exec(line);
    if (heading?.[1]) {
      group = heading[1].replace(/\s*\([^)]*\)$/, '');
      continue;
    }
    // The header row ("| Code | Status |") and the separator row have no numeric status.
    const row = /^\|\s*([^|\s]+)\s*\|\s*(\d{3})\s*\|(.*)\|\s*$/.exec(line);
    if (!row || group === null) continue;
    codes.push({
      code: row[1] ?? '',
      status: Number(row[2]),
      group,
      meaning: meaningOf(row[3] ?? ''),
    });
  }
  const total = /total of (\d+) codes/.exec(markdown);
  return { codes, statedTotal: total?.[1] ? Number(total[1]) : null };
}

// The seed marks a missing meaning with a parenthetical; errors.yaml keeps only real text.
function meaningOf(cell: string): string {
  const text = cell.trim();
  if (text === '' || text === NO_MEANING) return '';
  return text.replace(` ${NO_MEANING}.`, '.');
}

/** Lists every difference between the seed and the errors.yaml entries; empty when they match. */
export function compareCatalog(seed: SeedCatalog, entries: CatalogCode[], yamlTotal?: unknown): string[] {
  const problems: string[] = [];
  const seedByCode = new Map(seed.codes.map((c) => [c.code, c]));
  const yamlByCode = new Map(entries.map((c) => [c.code, c]));

  const missing = seed.codes.filter((c) => !yamlByCode.has(c.code)).map((c) => c.code);
  const extra = entries.filter((c) => !seedByCode.has(c.code)).map((c) => c.code);
  const duplicates = entries.map((c) => c.code).filter((code, i, all) => all.indexOf(code) !== i);
  if (missing.length) problems.push(`missing from errors.yaml (${missing.length}): ${missing.join(', ')}`);
  if (extra.length) problems.push(`extra in errors.yaml (${extra.length}): ${extra.join(', ')}`);
  if (duplicates.length) problems.push(`duplicated in errors.yaml: ${duplicates.join(', ')}`);

  for (const want of seed.codes) {
    const got = yamlByCode.get(want.code);
    if (!got) continue;
    if (got.status !== want.status) {
      problems.push(`status mismatch: ${want.code} seed ${want.status}, errors.yaml ${got.status}`);
    }
    if (got.group !== want.group) {
      problems.push(`group mismatch: ${want.code} seed "${want.group}", errors.yaml "${got.group}"`);
    }
    if (got.meaning !== want.meaning) {
      problems.push(`meaning mismatch: ${want.code}\n      seed:        ${want.meaning}\n      errors.yaml: ${got.meaning}`);
    }
  }

  if (seed.statedTotal === null) problems.push('the seed no longer states "a total of N codes"');
  else if (seed.codes.length !== seed.statedTotal) {
    problems.push(`the seed lists ${seed.codes.length} codes but states a total of ${seed.statedTotal}`);
  }
  if (entries.length !== seed.codes.length) {
    problems.push(`count: errors.yaml has ${entries.length} codes, the seed lists ${seed.codes.length}`);
  }
  if (yamlTotal !== seed.statedTotal) {
    problems.push(`total: errors.yaml says ${String(yamlTotal)}, the seed states ${seed.statedTotal}`);
  }
  if (!problems.length) {
    const order = seed.codes.findIndex((c, i) => entries[i]?.code !== c.code);
    if (order >= 0) problems.push(`order: entry ${order + 1} is ${entries[order]?.code}, the seed has ${seed.codes[order]?.code}`);
  }
  return problems;
}

/** A register entry as far as quoting goes. */
export interface QuotedRequirement {
  id: string;
  document: string;
  section: string;
  quote: string;
}

/** Runs of whitespace as one space, so a quote may wrap where the seed does not. */
function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The text under each heading of `markdown` (any level), by heading text. */
export function sectionsOf(markdown: string): Map<string, string> {
  const sections = new Map<string, string>();
  let heading = '';
  for (const line of markdown.split(/\r?\n/)) {
    const match = /^#{1,6}\s+(.+?)\s*$/.exec(line);
    if (match?.[1]) {
      heading = match[1];
      if (!sections.has(heading)) sections.set(heading, '');
      continue;
    }
    sections.set(heading, `${sections.get(heading) ?? ''}\n${line}`);
  }
  return sections;
}

/** Every seed statement of the register whose quote is not, word for word, in the section it names. */
export function compareQuotes(seeds: ReadonlyMap<string, string>, entries: readonly QuotedRequirement[]): string[] {
  const problems: string[] = [];
  const sectionsByDocument = new Map([...seeds].map(([name, markdown]) => [name, sectionsOf(markdown)]));
  for (const entry of entries) {
    const sections = sectionsByDocument.get(entry.document);
    if (sections === undefined) continue;
    const section = sections.get(entry.section);
    if (section === undefined) problems.push(`${entry.id}: ${entry.document} has no section "${entry.section}"`);
    else if (!collapse(section).includes(collapse(entry.quote))) problems.push(`${entry.id}: not found word for word in ${entry.document} › ${entry.section}: "${entry.quote}"`);
  }
  return problems;
}

// A directory gets the catalog file name appended, so both the seeds dir and the file itself work.
function seedCatalogPath(): string {
  // No default: the seed documents are not part of the repository (spec/DECISIONS.md quotes them).
  const given = process.argv[2] ?? process.env.WAYBILL_SEEDS_DIR;
  if (given === undefined || given === '') return '';
  const path = resolve(given);
  return existsSync(path) && statSync(path).isDirectory() ? resolve(path, CATALOG_FILE) : path;
}

function main(): number {
  const seedPath = seedCatalogPath();
  if (seedPath === '' || !existsSync(seedPath)) {
    console.error(seedPath === '' ? 'check:seeds: no seed documents given' : `check:seeds: seed catalog not found at ${seedPath}`);
    console.error('Pass the seeds directory (or the catalog file) as the first argument, or set WAYBILL_SEEDS_DIR.');
    return 2;
  }
  const seed = parseSeedCatalog(readFileSync(seedPath, 'utf8'));
  const catalog = parse(readFileSync(new URL('../../spec/errors.yaml', import.meta.url), 'utf8')) as {
    total?: unknown;
    codes?: CatalogCode[];
  };
  const problems = compareCatalog(seed, catalog.codes ?? [], catalog.total);
  if (problems.length) {
    console.error(`errors.yaml differs from the seed (${seedPath}):`);
    for (const problem of problems) console.error(`  - ${problem}`);
    return 1;
  }
  console.log(`errors.yaml matches the seed: ${seed.codes.length} codes`);
  const seedsDir = dirname(seedPath);
  const register = parse(readFileSync(new URL('../../spec/requirements.yaml', import.meta.url), 'utf8')) as { requirements: QuotedRequirement[] };
  const statements = register.requirements.filter((entry) => entry.document !== 'DECISIONS.md');
  const documents = new Map([...new Set(statements.map((entry) => entry.document))].map((name) => [name, readFileSync(resolve(seedsDir, name), 'utf8')]));
  const misquoted = compareQuotes(documents, statements);
  if (misquoted.length) {
    console.error(`spec/requirements.yaml misquotes the seeds (${seedsDir}):`);
    for (const problem of misquoted) console.error(`  - ${problem}`);
    return 1;
  }
  console.log(`requirements.yaml quotes the seeds word for word: ${statements.length} statements`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main();
}
