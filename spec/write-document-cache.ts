/**
 * The last step of `npm run build`: parses the YAML documents of `spec/` once (validating
 * the register as every load does) and writes them to `dist/spec/documents.json`, so a
 * compiled command starts without a YAML parser's work. Run as `node dist/spec/write-document-cache.js`.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { DOCUMENT_CACHE_FILE } from './package-files.ts';

// A cache left by an earlier build must not be what this one reads back.
rmSync(DOCUMENT_CACHE_FILE, { force: true });
const { parsedDocuments } = await import('./load.ts');
writeFileSync(DOCUMENT_CACHE_FILE, JSON.stringify(Object.fromEntries(parsedDocuments)));
process.stdout.write(`wrote ${DOCUMENT_CACHE_FILE.slice(DOCUMENT_CACHE_FILE.lastIndexOf('dist/'))}: ${[...parsedDocuments.keys()].join(', ')}\n`);
