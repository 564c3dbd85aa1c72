/**
 * Generates the checked-in TypeScript types of the contract:
 * `openapi-types.ts` (openapi-typescript over openapi.yaml) and `catalog-codes.ts`
 * (the union of the catalog's codes). `npm run gen:types` writes them; the test
 * `generate-types.test.ts` fails when the checked-in files are stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { parse as parseYaml } from 'yaml';

const specUrl = new URL('../../spec/', import.meta.url);

const banner = (source: string) =>
  `// Generated from spec/${source} by \`npm run gen:types\`. Do not edit by hand.\n`;

/** The text of `openapi-types.ts` as the current openapi.yaml generates it. */
export async function renderOpenapiTypes(): Promise<string> {
  const ast = await openapiTS(new URL('openapi.yaml', specUrl), { alphabetize: false });
  return banner('openapi.yaml') + astToString(ast);
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
    'catalog-codes.ts': renderCatalogCodes(),
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const [name, text] of Object.entries(await renderAll())) {
    writeFileSync(fileURLToPath(new URL(name, specUrl)), text);
    process.stdout.write(`wrote spec/${name}\n`);
  }
}
