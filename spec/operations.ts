/** The operations of a document, with every parameter, body and response a validator needs resolved. */
import type { CatalogCode } from './catalog-codes.ts';
import { type Json, type JsonObject, openapi } from './documents.ts';

/** Resolves a local `$ref` (`#/components/...`) of `document`, following chains of references. */
export function resolveRef<T = JsonObject>(value: Json, document: JsonObject = openapi): T {
  let current = value;
  while (current !== null && typeof current === 'object' && !Array.isArray(current) && typeof current['$ref'] === 'string') {
    const pointer = current['$ref'];
    if (!pointer.startsWith('#/')) throw new Error(`only local references are supported: ${pointer}`);
    current = pointer
      .slice(2)
      .split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<Json>((node, part) => (node as JsonObject)[part] as Json, document);
    if (current === undefined) throw new Error(`unresolved reference ${pointer}`);
  }
  return current as T;
}

/** A parameter of an operation, references resolved. */
export interface ParameterSpec {
  name: string;
  in: 'query' | 'header' | 'path' | 'cookie';
  required: boolean;
  schema: Json;
  explode: boolean;
}

/** A header of a response, references resolved. */
export interface HeaderSpec {
  required: boolean;
  schema: Json;
}

/** One declared response of an operation. */
export interface ResponseSpec {
  /** The content types it may carry, each with its schema (absent for 204). */
  content: Record<string, Json>;
  headers: Record<string, HeaderSpec>;
}

/** An operation of a document, with everything a validator needs resolved. */
export interface OperationSpec {
  operationId: string;
  method: string;
  /** The OpenAPI path template, e.g. `/api/v1/integration/orders/externalid/{externalId}`. */
  path: string;
  /** The scope its security requirement names, or null when it needs none. */
  scope: string | null;
  errorCodes: CatalogCode[];
  parameters: ParameterSpec[];
  requestBody: { required: boolean; content: Record<string, Json> } | null;
  responses: Record<string, ResponseSpec>;
}

const methods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** Every operation of `document`, in document order. */
export function listOperations(document: JsonObject = openapi): OperationSpec[] {
  const operations: OperationSpec[] = [];
  for (const [path, item] of Object.entries((document['paths'] as JsonObject | undefined) ?? {})) {
    for (const [method, raw] of Object.entries(item as JsonObject)) {
      if (!methods.includes(method)) continue;
      const operation = raw as JsonObject;
      const security = (operation['security'] ?? document['security'] ?? []) as JsonObject[];
      const scope = security.map((requirement) => Object.values(requirement)[0] as string[]).find((s) => s.length > 0)?.[0];
      const parameters = ((operation['parameters'] ?? []) as Json[]).map((ref): ParameterSpec => {
        const parameter = resolveRef(ref, document);
        return {
          name: parameter['name'] as string,
          in: parameter['in'] as ParameterSpec['in'],
          required: parameter['required'] === true,
          schema: parameter['schema'] as Json,
          explode: parameter['explode'] !== false,
        };
      });
      const body = operation['requestBody'] === undefined ? null : resolveRef(operation['requestBody'], document);
      const responses: Record<string, ResponseSpec> = {};
      for (const [status, ref] of Object.entries(operation['responses'] as JsonObject)) {
        const response = resolveRef(ref, document);
        const content: Record<string, Json> = {};
        for (const [type, media] of Object.entries((response['content'] as JsonObject | undefined) ?? {})) {
          content[type] = (media as JsonObject)['schema'] as Json;
        }
        const headers: Record<string, HeaderSpec> = {};
        for (const [name, headerRef] of Object.entries((response['headers'] as JsonObject | undefined) ?? {})) {
          const header = resolveRef(headerRef, document);
          headers[name] = { required: header['required'] === true, schema: header['schema'] as Json };
        }
        responses[status] = { content, headers };
      }
      operations.push({
        operationId: operation['operationId'] as string,
        method: method.toUpperCase(),
        path,
        scope: scope ?? null,
        errorCodes: (operation['x-error-codes'] ?? []) as CatalogCode[],
        parameters,
        requestBody:
          body === null
            ? null
            : {
                required: body['required'] === true,
                content: Object.fromEntries(
                  Object.entries(body['content'] as JsonObject).map(([type, media]) => [type, (media as JsonObject)['schema'] as Json]),
                ),
              },
        responses,
      });
    }
  }
  return operations;
}

/** The integration API's operations, by operationId. */
export const operations: ReadonlyMap<string, OperationSpec> = new Map(listOperations().map((op) => [op.operationId, op]));
