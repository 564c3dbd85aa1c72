import { mkdtempSync, readFileSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN_FILE, adminTokenFileOf, adminTokenUrls, readAdminTokenFor, writeAdminTokenFile } from './admin-token-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'waybill-token-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the admin token file', () => {
  it('gives the token for its own URL only, and is removed only while it is still ours', () => {
    const file = join(dir, 'admin-token.json');
    const remove = writeAdminTokenFile('http://127.0.0.1:4321', 'wba_one', file);
    expect(readAdminTokenFor('http://127.0.0.1:4321/', file)).toBe('wba_one');
    expect(readAdminTokenFor('http://127.0.0.1:4322', file)).toBeUndefined();
    expect(readAdminTokenFor('https://api.example.com', file)).toBeUndefined();
    // A second sandbox took the URL over: the first one's shutdown leaves its entry alone.
    writeAdminTokenFile('http://127.0.0.1:4321', 'wba_two', file);
    remove();
    expect(readAdminTokenFor('http://127.0.0.1:4321', file)).toBe('wba_two');
    expect(readAdminTokenFor('http://127.0.0.1:4321', join(dir, 'absent.json'))).toBeUndefined();
  });

  it('keeps one entry per base URL, so two sandboxes in one folder both stay reachable', () => {
    const file = join(dir, 'two.json');
    const removeFirst = writeAdminTokenFile('http://127.0.0.1:4001', 'wba_first', file);
    const removeSecond = writeAdminTokenFile('http://127.0.0.1:4002', 'wba_second', file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readAdminTokenFor('http://127.0.0.1:4001', file)).toBe('wba_first');
    expect(readAdminTokenFor('http://127.0.0.1:4002', file)).toBe('wba_second');
    // The second one stops: the first one's token is still there.
    removeSecond();
    expect(readAdminTokenFor('http://127.0.0.1:4001', file)).toBe('wba_first');
    expect(readAdminTokenFor('http://127.0.0.1:4002', file)).toBeUndefined();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual([{ url: 'http://127.0.0.1:4001', token: 'wba_first' }]);
    // The last one out removes the file.
    removeFirst();
    expect(existsSync(file)).toBe(false);
  });

  it('takes localhost for 127.0.0.1, and names the URLs it has a token for', () => {
    const file = join(dir, 'localhost.json');
    writeAdminTokenFile('http://127.0.0.1:4003', 'wba_local', file);
    writeAdminTokenFile('http://127.0.0.1:4004/', 'wba_other', file);
    expect(readAdminTokenFor('http://localhost:4003', file)).toBe('wba_local');
    expect(readAdminTokenFor('http://LOCALHOST:4003/', file)).toBe('wba_local');
    expect(readAdminTokenFor('http://localhost:4005', file)).toBeUndefined();
    expect(adminTokenUrls(file)).toEqual(['http://127.0.0.1:4003', 'http://127.0.0.1:4004/']);
    expect(adminTokenUrls(join(dir, 'absent.json'))).toEqual([]);
  });

  it('goes to .waybill/admin-token.json for a database file, to no file for :memory:, and where --admin-token-file says (none for none)', () => {
    expect(adminTokenFileOf(undefined, '.waybill/sandbox.db')).toBe(ADMIN_TOKEN_FILE);
    expect(adminTokenFileOf(undefined, ':memory:')).toBeNull();
    expect(adminTokenFileOf('tokens.json', ':memory:')).toBe('tokens.json');
    expect(adminTokenFileOf('none', '.waybill/sandbox.db')).toBeNull();
  });
});
