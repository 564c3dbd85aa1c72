/** Reads a data file (JSON or YAML) and validates it against one of the package's JSON schemas. */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse as parseYaml } from 'yaml';
import { UsageError } from '../../cli/errors.ts';
import { packageFile } from '../../spec/package-files.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** One Ajv error as `/waivers/0/expires must match format "date"`. */
function describeError(error: ErrorObject): string {
  const at = error.instancePath === '' ? '' : error.instancePath;
  if (error.keyword === 'required') return `${at}/${String(error.params['missingProperty'])} is required`;
  if (error.keyword === 'additionalProperties') return `${at}/${String(error.params['additionalProperty'])} is not a known field`;
  return `${at === '' ? '/' : at} ${error.message ?? 'is invalid'}`;
}

/**
 * Reads `file` (YAML when `format` says so, which also reads JSON) and checks it against the
 * schema at `schemaPath` (relative to the package root); throws a `UsageError` naming the file
 * and the first problems.
 */
export function readValidated<T>(file: string, schemaPath: string, format: 'json' | 'yaml', what: string): T {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`${file}: cannot read the ${what} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let value: unknown;
  try {
    value = format === 'yaml' ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file}: not ${format.toUpperCase()} (${(error as Error).message.split('\n')[0]})`);
  }
  const schema = JSON.parse(readFileSync(packageFile(schemaPath), 'utf8')) as object;
  const validate = addFormats(new Ajv2020({ allErrors: true, strict: true })).compile(schema);
  if (!validate(value)) throw new UsageError(`${file}: not a valid ${what} (${schemaPath}): ${(validate.errors ?? []).slice(0, 3).map(describeError).join('; ')}`);
  return value as T;
}
