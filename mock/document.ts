/**
 * The document `waybill mock --dynamic` hands Prism: `spec/openapi.yaml` as it is, except that
 * each problem answer's schema also offers the answer's own documented examples to
 * json-schema-faker (which picks from `examples`, `x-json-schema-faker` in the document). A
 * generated 404 is then `orders.notFound` with status 404, and a 400 a catalog code naming a
 * field, never lorem ipsum. It is derived at start, so the examples are written once, in the
 * contract.
 */
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Json, openapi, specHash } from '../spec/load.ts';

type JsonObject = { [key: string]: Json };

const PROBLEM = 'application/problem+json';

/** `document` with every problem answer among its shared responses offering its examples' bodies to the generator. */
export function dynamicDocument(document: JsonObject = openapi): JsonObject {
  const copy = structuredClone(document);
  const responses = ((copy['components'] as JsonObject)['responses'] ?? {}) as JsonObject;
  for (const response of Object.values(responses) as JsonObject[]) {
    const media = (response['content'] as JsonObject | undefined)?.[PROBLEM] as JsonObject | undefined;
    const examples = media?.['examples'] as JsonObject | undefined;
    if (media === undefined || examples === undefined) continue;
    // `allOf` keeps the schema exactly as strict; `examples` only annotates it.
    media['schema'] = { allOf: [media['schema']!], examples: Object.values(examples).map((example) => (example as JsonObject)['value']!) };
  }
  return copy;
}

/**
 * The file of `dynamicDocument()` in the temporary folder, named by the hash of
 * `spec/openapi.yaml`: written once per version of the contract (through a rename, so a
 * reader never sees half of it) and reused by every mock after.
 */
export function dynamicDocumentFile(): string {
  const file = join(tmpdir(), `waybill-mock-${specHash.slice(0, 16)}.json`);
  if (!existsSync(file)) {
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, JSON.stringify(dynamicDocument()));
    renameSync(partial, file);
  }
  return file;
}
