/**
 * The contract's documents as loaded: reads `openapi.yaml` and `sandbox.yaml` of `spec/` once,
 * through the build's cache of parsed YAML, and the enums of the integration document the
 * code lists (order statuses, trip statuses, order types).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import type { components } from './openapi-types.ts';
import { DOCUMENT_CACHE_FILE, packageFile } from './package-files.ts';

type Schemas = components['schemas'];

/** A JSON value as YAML or JSON parsing yields it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A JSON object. */
export type JsonObject = { [key: string]: Json };

/** The text of a file of `spec/`. */
export function readSpecFile(name: string): string {
  return readFileSync(packageFile(`spec/${name}`), 'utf8');
}

/** A YAML document of `spec/` as loaded: its parsed value and the SHA-256 of its text. */
export interface ParsedDocument {
  sha256: string;
  value: Json;
}

/**
 * The YAML documents as the build parsed (and, for the register, validated) them, under the
 * SHA-256 of their text. A file changed since the build misses the cache and is parsed
 * again, so the cache only saves start-up time (YAML parsing is most of it); it can never
 * serve an old contract.
 */
const documentCache: Record<string, ParsedDocument> = readDocumentCache();

function readDocumentCache(): Record<string, ParsedDocument> {
  try {
    return JSON.parse(readFileSync(DOCUMENT_CACHE_FILE, 'utf8')) as Record<string, ParsedDocument>;
  } catch {
    return {};
  }
}

/** Every YAML document this process loaded, by file name: what the build writes to the cache. */
export const parsedDocuments = new Map<string, ParsedDocument>();

/**
 * `text` parsed: the cache's value when the cache holds this very text (same SHA-256), else
 * the YAML parser's. `fromCache` says which.
 */
export function parseDocument(text: string, cached: ParsedDocument | undefined): ParsedDocument & { fromCache: boolean } {
  const sha256 = createHash('sha256').update(text).digest('hex');
  if (cached?.sha256 === sha256) return { ...cached, fromCache: true };
  return { sha256, value: parseYaml(text) as Json, fromCache: false };
}

/** Reads and parses a YAML document of `spec/`, through the build's cache. */
export function loadYaml(name: string): ParsedDocument & { fromCache: boolean } {
  const document = parseDocument(readSpecFile(name), documentCache[name]);
  parsedDocuments.set(name, { sha256: document.sha256, value: document.value });
  return document;
}

const openapiDocument = loadYaml('openapi.yaml');

/** The integration API's OpenAPI 3.1 document, parsed. */
export const openapi = openapiDocument.value as JsonObject;
/** The sandbox control plane's OpenAPI 3.1 document, parsed. */
export const sandboxOpenapi = loadYaml('sandbox.yaml').value as JsonObject;
/** SHA-256 of `openapi.yaml` as shipped, recorded in conformance reports. */
export const specHash = openapiDocument.sha256;

/** The `enum` of the integration document's component schema `name`. */
function enumOf(name: string): string[] {
  const schemas = (openapi['components'] as JsonObject)['schemas'] as JsonObject;
  const values = (schemas[name] as JsonObject | undefined)?.['enum'];
  if (!Array.isArray(values)) throw new Error(`spec/openapi.yaml: components.schemas.${name} has no enum`);
  return values as string[];
}

/** The order statuses the contract lists (`OrderStatusName`, the seeds' "Allowed values of `status`"), in its order. */
export const orderStatuses: readonly Schemas['OrderStatusName'][] = enumOf('OrderStatusName') as Schemas['OrderStatusName'][];
/** The trip statuses the contract lists (`TripStatus`, D16), in its order. */
export const tripStatuses: readonly Schemas['TripStatus'][] = enumOf('TripStatus') as Schemas['TripStatus'][];
/** The order types the contract lists (`OrderType`), in its order. */
export const orderTypes: readonly Schemas['OrderType'][] = enumOf('OrderType') as Schemas['OrderType'][];
