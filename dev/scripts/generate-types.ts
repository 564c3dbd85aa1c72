/**
 * Generates the checked-in TypeScript of the contract: `openapi-types.ts` and
 * `sandbox-types.ts` (openapi-typescript over openapi.yaml and sandbox.yaml: every schema as a
 * type, every enum also as a `…Values` array) and `catalog-codes.ts` (the union of the
 * catalog's codes). `npm run gen:types` writes them into spec/; the test
 * `generate-types.test.ts` fails when the checked-in files are stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import openapiTS, { astToString, type OpenAPITSOptions } from 'openapi-typescript';
import ts from 'typescript';
import { parse as parseYaml } from 'yaml';

const specUrl = new URL('../../spec/', import.meta.url);

const banner = (source: string) =>
  `// Generated from spec/${source} by \`npm run gen:types\`. Do not edit by hand.\n`;

// `enumValues`: the console runs in a browser and cannot read the YAML, so it imports the
// enums as values. `emptyObjectsUnknown`: a schema `{ type: object }` holds any members, not
// none (the documents have none left, D91, and spec/client-shapes.test.ts keeps it so).
const OPTIONS: OpenAPITSOptions = { alphabetize: false, enumValues: true, emptyObjectsUnknown: true, defaultNonNullable: false };

/** `components.schemas` of a document of spec/. */
function schemasOf(document: string): Record<string, unknown> {
  return (parseYaml(readFileSync(new URL(document, specUrl), 'utf8')) as { components: { schemas: Record<string, unknown> } }).components.schemas;
}

/** The text of `openapi-types.ts` as the current openapi.yaml generates it. */
export async function renderOpenapiTypes(): Promise<string> {
  const ast = await openapiTS(new URL('openapi.yaml', specUrl), OPTIONS);
  return banner('openapi.yaml') + astToString(ast);
}

/** The name a type member or declaration is written under, if any. */
function nameOf(node: ts.Node): string | undefined {
  const name = (node as { name?: ts.Node }).name;
  return name !== undefined && (ts.isIdentifier(name) || ts.isStringLiteral(name)) ? name.text : undefined;
}

/**
 * The text of `sandbox-types.ts` as the current sandbox.yaml generates it. The schemas
 * sandbox.yaml copies from openapi.yaml (`Order`, `Problem`, …: generate-spec.ts, D91) are
 * dropped here and referred to in `openapi-types.ts` instead, so each shape of the contract is
 * written once and an `Order` is the same type in both.
 */
export async function renderSandboxTypes(): Promise<string> {
  const sandboxSchemas = schemasOf('sandbox.yaml');
  const integrationSchemas = schemasOf('openapi.yaml');
  const integration = new Set(Object.keys(integrationSchemas));
  const own = new Set(Object.keys(sandboxSchemas).filter((name) => !isDeepStrictEqual(sandboxSchemas[name], integrationSchemas[name])));
  const nodes = await openapiTS(new URL('sandbox.yaml', specUrl), OPTIONS);
  const borrowed = new Set<string>();
  const kept = nodes.map((node) => {
    if (!ts.isInterfaceDeclaration(node) || node.name.text !== 'components') return node;
    const members = node.members.map((member) => {
      if (nameOf(member) !== 'schemas' || !ts.isPropertySignature(member) || member.type === undefined || !ts.isTypeLiteralNode(member.type)) return member;
      const schemas = member.type.members.filter((schema) => {
        const name = nameOf(schema) ?? '';
        if (own.has(name)) return true;
        if (!integration.has(name)) throw new Error(`sandbox-types: schema '${name}' is neither sandbox.yaml's nor openapi.yaml's`);
        borrowed.add(name);
        return false;
      });
      return ts.factory.updatePropertySignature(member, member.modifiers, member.name, member.questionToken, ts.factory.updateTypeLiteralNode(member.type, ts.factory.createNodeArray(schemas)));
    });
    return ts.factory.updateInterfaceDeclaration(node, node.modifiers, node.name, node.typeParameters, node.heritageClauses, members);
  });
  const reference = (name: string) => `components["schemas"]["${name}"]`;
  // A borrowed enum's `…Values` array is openapi-types.ts's too.
  const ownNodes = kept.filter((node) => !ts.isVariableStatement(node) || ![...borrowed].some((name) => astToString(node).includes(`>["schemas"]["${name}"]`)));
  let text = astToString(ownNodes);
  for (const name of borrowed) text = text.replaceAll(reference(name), `integration["schemas"]["${name}"]`);
  return `${banner('sandbox.yaml')}import type { components as integration } from './openapi-types.ts';\n\n${text}`;
}

/** The text of `catalog-codes.ts` as the current errors.yaml generates it. */
export function renderCatalogCodes(): string {
  const { codes } = parseYaml(readFileSync(new URL('errors.yaml', specUrl), 'utf8')) as { codes: { code: string }[] };
  const members = codes.map(({ code }) => `  | '${code}'`).join('\n');
  return `${banner('errors.yaml')}\n/** Every code of the error catalog. */\nexport type CatalogCode =\n${members};\n`;
}

/** The generated files and their expected text, by file name inside spec/. */
export async function renderAll(): Promise<Record<string, string>> {
  return {
    'openapi-types.ts': await renderOpenapiTypes(),
    'sandbox-types.ts': await renderSandboxTypes(),
    'catalog-codes.ts': renderCatalogCodes(),
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const [name, text] of Object.entries(await renderAll())) {
    writeFileSync(fileURLToPath(new URL(name, specUrl)), text);
    process.stdout.write(`wrote spec/${name}\n`);
  }
}
