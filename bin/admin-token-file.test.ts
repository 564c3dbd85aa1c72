import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readAdminTokenFor, writeAdminTokenFile } from './admin-token-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'waybill-token-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the admin token file', () => {
  it('gives the token for its own URL only, and is removed only while it is still ours', () => {
    const file = join(dir, 'admin-token.json');
    const remove = writeAdminTokenFile('http://127.0.0.1:4321', 'wba_one', file);
    expect(readAdminTokenFor('http://127.0.0.1:4321/', file)).toBe('wba_one');
    expect(readAdminTokenFor('http://127.0.0.1:4322', file)).toBeUndefined();
    expect(readAdminTokenFor('https://api.example.com', file)).toBeUndefined();
    // A second sandbox took the file over: the first one's shutdown leaves it alone.
    writeAdminTokenFile('http://127.0.0.1:4321', 'wba_two', file);
    remove();
    expect(readAdminTokenFor('http://127.0.0.1:4321', file)).toBe('wba_two');
    expect(readAdminTokenFor('http://127.0.0.1:4321', join(dir, 'absent.json'))).toBeUndefined();
  });
});
