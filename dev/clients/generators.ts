/**
 * The four client generators from npm that the contract is held to, each run as a new user runs
 * it: input, output and client kind, nothing else. Each has a program per document in
 * `programs/<folder>/`, which imports the generated client as `#client`.
 */
import { join } from 'node:path';

/** The two documents of the contract, as their files are named in spec/. */
export const DOCUMENTS = ['openapi.yaml', 'sandbox.yaml'] as const;

/** One of the two documents. */
export type DocumentName = (typeof DOCUMENTS)[number];

/** A generator and how its programs use what it writes. */
export interface Generator {
  /** The generator and the client it writes, as the table names them. */
  name: string;
  /** Its programs' folder under `programs/`. */
  folder: string;
  /** The command of node_modules/.bin and its arguments that writes a client of `input` into the folder `output`. */
  command(input: string, output: string): string[];
  /** The file the programs import as `#client`, relative to the output folder. */
  entry: string;
  /** What it cannot do by design, which its programs work around (the test prints it beside the table). */
  byDesign: string[];
}

/** The generators, each with its default options. */
export const GENERATORS: readonly Generator[] = [
  {
    name: 'openapi-typescript + openapi-fetch',
    folder: 'openapi-fetch',
    command: (input, output) => ['openapi-typescript', input, '--output', join(output, 'schema.ts')],
    entry: 'schema.ts',
    byDesign: [],
  },
  {
    name: '@hey-api/openapi-ts (client-fetch)',
    folder: 'hey-api',
    command: (input, output) => ['openapi-ts', '--input', input, '--output', output, '--client', '@hey-api/client-fetch'],
    entry: 'index.ts',
    byDesign: [],
  },
  {
    name: 'orval (fetch)',
    folder: 'orval',
    command: (input, output) => ['orval', '--input', input, '--output', join(output, 'client.ts'), '--client', 'fetch'],
    entry: 'client.ts',
    byDesign: [
      'path parameters are put into the URL as they are, not encoded: the program encodes them (encodeURIComponent)',
      'the URL is the path alone (a page\'s origin is its base): the program gives fetch a base URL',
    ],
  },
  {
    name: 'openapi-zod-client (Zodios, axios)',
    folder: 'openapi-zod-client',
    command: (input, output) => ['openapi-zod-client', input, '--output', join(output, 'client.ts')],
    entry: 'client.ts',
    byDesign: [
      'path parameters are put into the URL as they are, not encoded: the program encodes them (encodeURIComponent)',
      'a call answers its body only: the program reads the headers through a Zodios plugin',
      'with its defaults it reads application/json only, so a problem body (application/problem+json) is untyped: the program reads its type from the axios error',
    ],
  },
];
