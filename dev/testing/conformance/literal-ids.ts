/** Test support: which ids a folder's sources do not spell out as a quoted literal (grep an id from a report, find its source). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The ids of `ids` that no source file (`*.ts`, tests excluded) under `folder` holds as a literal in single quotes. */
export function idsNotSpelledOut(folder: URL, ids: readonly string[]): string[] {
  const root = fileURLToPath(folder);
  const sources = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => readFileSync(join(root, file), 'utf8'))
    .join('\n');
  return ids.filter((id) => !sources.includes(`'${id}'`));
}
