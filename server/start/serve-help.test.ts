/** `waybill serve --help` says what is true of the sandbox: its tables, its admin token, in paragraphs that read as such. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from './serve.ts';

afterEach(() => vi.restoreAllMocks());

/** What `waybill serve --help` prints. */
async function help(): Promise<string> {
  let printed = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((text) => ((printed += String(text)), true));
  expect(await main(['--help'])).toBe(0);
  return printed;
}

/** Every SQL migration of both engines, as one text. */
function migrations(): string {
  const roots = ['../store/migrations', '../store/postgres/migrations'].map((path) => fileURLToPath(new URL(path, import.meta.url)));
  return roots.flatMap((root) => readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.sql')).map((file) => readFileSync(join(root, file), 'utf8'))).join('\n');
}

describe('waybill serve --help', () => {
  it('names the request log tables the migrations really create, and the admin token variable', async () => {
    const text = await help();
    const tables = [...new Set(text.match(/\brequest_log\w*/g) ?? [])];
    expect(tables.length).toBeGreaterThan(0);
    const sql = migrations();
    for (const table of tables) expect(sql, table).toMatch(new RegExp(`CREATE TABLE (IF NOT EXISTS )?${table}\\b`));
    // A table the log no longer writes (request_log, before the chunks) is not named.
    expect(sql).toMatch(/DROP TABLE (IF EXISTS )?request_log\b/);
    expect(tables).not.toContain('request_log');
    expect(text).toContain('WAYBILL_ADMIN_TOKEN');
  });

  it('has no stray line break: a paragraph line is short only where the paragraph ends', async () => {
    const prose = (await help()).split('\nExamples:\n')[0]!.split('\n  -h, --help')[1]!.split('\n').slice(1).join('\n');
    for (const paragraph of prose.split(/\n\s*\n/).filter((text) => text.trim() !== '')) {
      const lines = paragraph.trim().split('\n');
      for (const line of lines.slice(0, -1)) expect(line.length, `"${line}" in:\n${paragraph}`).toBeGreaterThan(60);
      for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(100);
    }
  });
});
