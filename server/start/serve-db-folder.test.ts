/** `waybill serve --db`: a new database file is made, a new folder tree from a mistyped path is not. */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../cli/errors.ts';
import { main } from './serve.ts';

const folder = mkdtempSync(join(tmpdir(), 'waybill-serve-db-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('serve --db FILE in a folder that does not exist', () => {
  it('is refused in one line naming the folder, and creates nothing', async () => {
    const file = join(folder, 'typo', 'deeper', 'sandbox.db');
    const refused = main(['--db', file, '--port', '0']);
    await expect(refused).rejects.toThrow(UsageError);
    await expect(refused).rejects.toThrow(`--db ${file}: the folder ${join(folder, 'typo', 'deeper')} does not exist; create it first (a new database file is made in a folder that exists)`);
    expect(existsSync(join(folder, 'typo'))).toBe(false);
  });

  it("makes waybill's own .waybill/ folder, as for the default database (waybill serve --seed 7 --db .waybill/seed-7.db)", async () => {
    const cwd = process.cwd();
    process.chdir(folder);
    try {
      const started = main(['--db', join('.waybill', 'seed-7.db'), '--port', '0', '--fixtures', 'no-such-dataset.json']);
      // Past the folder rule: what is refused next is the dataset, read before the database is made.
      await expect(started).rejects.toThrow(/no-such-dataset\.json/);
      await expect(started).rejects.not.toThrow(/does not exist; create it first/);
    } finally {
      process.chdir(cwd);
    }
  });
});
