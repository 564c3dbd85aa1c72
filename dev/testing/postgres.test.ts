import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { inject } from 'vitest';
import { postgresBinaries, startCluster } from './postgres-cluster.ts';
import { freshDatabase, postgresRequired, releaseCluster, queryDatabase as query, skipWithoutPostgres } from './postgres.ts';

/** A fake `/usr/lib/postgresql` holding the given versions, each with the named binaries. */
function fakeRoot(versions: Record<string, string[]>): string {
  const root = mkdtempSync(join(tmpdir(), 'waybill-pg-root-'));
  for (const [version, tools] of Object.entries(versions)) {
    mkdirSync(join(root, version, 'bin'), { recursive: true });
    for (const tool of tools) writeFileSync(join(root, version, 'bin', tool), '');
  }
  return root;
}

describe('finding the PostgreSQL binaries', () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
    vi.restoreAllMocks();
  });

  it('takes the newest major version that has both initdb and pg_ctl, comparing versions as numbers', () => {
    const root = fakeRoot({ '9.6': ['initdb', 'pg_ctl'], '14': ['initdb', 'pg_ctl'], '15': ['initdb', 'pg_ctl'], '16': ['initdb'], 'common': ['initdb', 'pg_ctl'] });
    roots.push(root);
    expect(postgresBinaries(root)).toEqual({ bin: join(root, '15', 'bin'), version: '15' });
  });

  it('finds none in a missing or empty folder', () => {
    const root = fakeRoot({ '15': ['psql'] });
    roots.push(root);
    expect(postgresBinaries(root)).toBeNull();
    expect(postgresBinaries(join(root, 'missing'))).toBeNull();
  });

  it('skips, saying why and how to get PostgreSQL, where there are none; fails instead where the run requires them', () => {
    const root = fakeRoot({});
    roots.push(root);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(skipWithoutPostgres('store', { root, required: false })).toBe(true);
    expect(warn).toHaveBeenCalledOnce();
    expect(warn.mock.calls[0]?.[0]).toMatch(/^store PostgreSQL tests skipped: no PostgreSQL binaries \(initdb, pg_ctl\) under .+\/\*\/bin\. .*apt-get install -y postgresql/);
    expect(skipWithoutPostgres('store', { root, required: true })).toBe(false);
    expect(warn).toHaveBeenCalledOnce();
  });

  it('reads the requirement from WAYBILL_REQUIRE_POSTGRES=1 only', () => {
    expect(postgresRequired({ WAYBILL_REQUIRE_POSTGRES: '1' })).toBe(true);
    expect(postgresRequired({ WAYBILL_REQUIRE_POSTGRES: '0' })).toBe(false);
    expect(postgresRequired({})).toBe(false);
  });
});

describe.skipIf(skipWithoutPostgres('throwaway cluster'))('the throwaway cluster', () => {
  afterAll(releaseCluster);

  it('is started once for the run by the global setup and provided to the test files', () => {
    expect(inject('postgresUrl')).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
  });

  it('listens on 127.0.0.1 only, runs as the postgres user under root, and is gone with its folder once stopped', async () => {
    const cluster = await startCluster();
    let stopped = false;
    try {
      const [settings] = await query<{ listen: string; data: string; port: string }>(
        cluster.url,
        "SELECT current_setting('listen_addresses') AS listen, current_setting('data_directory') AS data, current_setting('port') AS port",
      );
      expect(settings?.listen).toBe('127.0.0.1');
      expect(cluster.url).toBe(`postgres://postgres@127.0.0.1:${settings?.port}/postgres`);
      const data = settings!.data;
      if (process.getuid?.() === 0) expect(statSync(data).uid).not.toBe(0);
      expect(existsSync(data)).toBe(true);
      cluster.stop();
      stopped = true;
      expect(existsSync(join(data, '..'))).toBe(false);
      await expect(query(cluster.url, 'SELECT 1')).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      if (!stopped) cluster.stop();
    }
  });

  it('gives each caller a fresh, empty database of its own', async () => {
    const first = await freshDatabase();
    const second = await freshDatabase();
    expect(first).not.toBe(second);
    await query(first, 'CREATE TABLE only_here (id int)');
    const tables = (url: string) => query<{ name: string }>(url, "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'");
    expect(await tables(first)).toEqual([{ name: 'only_here' }]);
    expect(await tables(second)).toEqual([]);
  });
});
