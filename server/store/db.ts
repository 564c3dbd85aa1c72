/**
 * Opens the sandbox database: WAL, foreign keys, full fsync on commit (a write answered
 * 2xx survives a crash of the server), and the migrations of `migrations/` in order,
 * tracked in `PRAGMA user_version`.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { packageFile } from '../../spec/package-files.ts';

/** A sandbox database connection (an interface of its own, so emitted declarations can name it). */
export interface Db extends Database.Database {}

const migrationsDir = packageFile('server/store/migrations/');

/** The migrations of `dir` shipped with the server, in the order they apply. */
function migrations(dir: string): { version: number; sql: string }[] {
  return readdirSync(dir)
    .filter((name) => /^\d{3}-.+\.sql$/.test(name))
    .sort()
    .map((name) => ({ version: Number(name.slice(0, 3)), sql: readFileSync(dir + name, 'utf8') }));
}

/** How much of the database file reads may map into memory (the feeds' index scans gain most). */
export const MMAP_BYTES = 1024 * 1024 * 1024;

/**
 * Opens (creating if needed) the database at `file` (`:memory:` allowed) and brings its
 * schema up to date; `schema` names a folder of `migrations/` for a database of another
 * kind (the request log's, D48). `pageSize` is the file's page size: a new file is made with
 * it, and one made with another is rewritten to it once (VACUUM, outside WAL, which fixes a
 * file's page size), its rows kept.
 */
export function openDatabase(file: string, schema?: string, options: { pageSize?: number } = {}): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  if (options.pageSize !== undefined && db.pragma('page_size', { simple: true }) !== options.pageSize) {
    // A new file takes the size before its first write; one already written, only once out of WAL.
    const written = (db.pragma('page_count', { simple: true }) as number) > 0;
    if (written) db.pragma('journal_mode = DELETE');
    db.pragma(`page_size = ${options.pageSize}`);
    if (written) db.exec('VACUUM');
  }
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // Reads of a large database go through the page cache without a copy per page.
  db.pragma(`mmap_size = ${MMAP_BYTES}`);
  // A function the request log's migration 004 calls: a text's length in JavaScript's UTF-16 code units.
  db.function('utf16_length', { deterministic: true }, (text: unknown) => (typeof text === 'string' ? text.length : null));
  const current = db.pragma('user_version', { simple: true }) as number;
  for (const { version, sql } of migrations(schema === undefined ? migrationsDir : `${migrationsDir}${schema}/`)) {
    if (version <= current) continue;
    db.transaction(() => {
      db.exec(sql);
      db.pragma(`user_version = ${version}`);
    })();
  }
  return db;
}
