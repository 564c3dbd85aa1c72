/**
 * The document `waybill mock` hands Prism: `spec/openapi.yaml` as it is, except that
 * each problem answer's schema also offers the answer's own documented examples to
 * json-schema-faker (which picks from `examples`, `x-json-schema-faker` in the document). A
 * generated 404 is then `orders.notFound` with status 404, and a 400 a catalog code naming a
 * field, never lorem ipsum. And it answers `GET /health` without a key, as `waybill serve`
 * does, so that one `waybill wait …/health` serves a CI step whichever of the two it started.
 * It is derived at start, so the examples are written once, in the contract.
 */
import { createHash } from 'node:crypto';
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Json, openapi } from '../spec/load.ts';
import { PACKAGE_VERSION } from '../spec/package-files.ts';

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
  (copy['paths'] as JsonObject)['/health'] = healthOperation;
  return copy;
}

/** `GET /health` as the sandbox answers it (server/workbench/docs.ts), with no key: the only path the mock adds to the contract. */
const healthOperation: JsonObject = {
  get: {
    operationId: 'health',
    summary: 'Whether the mock is up (not part of the integration API)',
    security: [],
    responses: {
      '200': {
        description: 'The mock is up.',
        content: {
          'application/json': {
            schema: { type: 'object', required: ['status', 'version'], properties: { status: { const: 'ok' }, version: { type: 'string' } } },
            example: { status: 'ok', version: PACKAGE_VERSION },
          },
        },
      },
    },
  },
};

/**
 * The file of `dynamicDocument()` in the temporary folder, named by the hash of its text:
 * written once per version of the document (through a rename, so a reader never sees half
 * of it) and reused by every mock after.
 */
export function dynamicDocumentFile(): string {
  const text = JSON.stringify(dynamicDocument());
  const file = join(tmpdir(), `waybill-mock-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.json`);
  if (!existsSync(file)) {
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, text);
    renameSync(partial, file);
  }
  return file;
}
