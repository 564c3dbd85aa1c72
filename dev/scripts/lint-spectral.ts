/**
 * Spectral's lint of the contract's documents, with the ruleset of `spec/spectral.yaml`
 * (Spectral's recommended OpenAPI rules and the ones it turns off, each with its reason). Run
 * from `npm run lint:spec` after Redocly's; any finding, whatever its severity, fails it.
 * Spectral's own packages do the work (core, rulesets, parsers); its CLI would add only a
 * ruleset bundler and formatters, which one YAML file and one line a finding do not need.
 *
 *   npx tsx dev/scripts/lint-spectral.ts spec/openapi.yaml spec/sandbox.yaml
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import spectralCore, { type RulesetDefinition } from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { parse as parseYaml } from 'yaml';
import { packageFile } from '../../spec/package-files.ts';

const { Document, Spectral } = spectralCore;
const SEVERITIES = ['error', 'warn', 'info', 'hint'] as const;

/** The shape of `spec/spectral.yaml`: Spectral's ruleset format, as far as this file uses it. */
interface RulesetFile {
  extends: [['spectral:oas', 'recommended']];
  rules?: Record<string, 'off' | (typeof SEVERITIES)[number]>;
}

/** `spec/spectral.yaml` as a ruleset Spectral's core takes. */
export function spectralRuleset(file = packageFile('spec/spectral.yaml')): RulesetDefinition {
  const ruleset = parseYaml(readFileSync(file, 'utf8')) as RulesetFile;
  if (JSON.stringify(ruleset.extends) !== JSON.stringify([['spectral:oas', 'recommended']])) throw new Error(`${file}: extends must be [[spectral:oas, recommended]]`);
  return { extends: [[oas as RulesetDefinition, 'recommended']], rules: ruleset.rules ?? {} } as RulesetDefinition;
}

/** Every finding of Spectral on `files`, as `file:line rule message` lines. */
export async function lintWithSpectral(files: string[]): Promise<string[]> {
  const spectral = new Spectral();
  spectral.setRuleset(spectralRuleset());
  const findings: string[] = [];
  for (const file of files) {
    const document = new Document(readFileSync(file, 'utf8'), spectralParsers.Yaml, file);
    for (const result of await spectral.run(document)) {
      findings.push(`${relative(process.cwd(), file)}:${result.range.start.line + 1} ${SEVERITIES[result.severity]} ${String(result.code)} ${result.message} (${result.path.join('.')})`);
    }
  }
  return findings;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const files = process.argv.slice(2);
  const findings = await lintWithSpectral(files);
  for (const line of findings) process.stdout.write(`${line}\n`);
  process.stdout.write(findings.length === 0 ? `Spectral: ${files.join(', ')} clean\n` : `Spectral: ${findings.length} finding(s)\n`);
  process.exitCode = findings.length === 0 ? 0 : 1;
}
