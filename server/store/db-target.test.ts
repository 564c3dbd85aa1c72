import { describe, expect, it } from 'vitest';
import { maskPassword, parseDbTarget } from './db-target.ts';

const SERVED = "waybill serves SQLite (a file path, or ':memory:') and PostgreSQL (postgres:// or postgresql://)";

describe('a --db value', () => {
  it.each([
    '.waybill/sandbox.db',
    ':memory:',
    '/tmp/sandbox.db',
    'sandbox.db',
    './postgres:odd.db',
    'C:\\sandbox\\waybill.db',
    'c:/sandbox/waybill.db',
    'D:waybill.db',
  ])('%s is a SQLite file, as before', (value) => {
    expect(parseDbTarget(value)).toEqual({ ok: true, target: { engine: 'sqlite', file: value } });
  });

  it.each(['postgres://postgres@127.0.0.1:5432/waybill', 'postgresql://u@db.example:6543/w?sslmode=require', 'POSTGRES://u@h/w', 'postgres:///waybill?host=/var/run/postgresql'])(
    '%s is PostgreSQL',
    (value) => {
      expect(parseDbTarget(value)).toEqual({ ok: true, target: { engine: 'postgres', url: value, shown: value } });
    },
  );

  it('keeps a PostgreSQL password for the connection and masks it wherever the URL is shown', () => {
    expect(parseDbTarget('postgres://waybill:s3cr%40t@db:5432/w')).toEqual({
      ok: true,
      target: { engine: 'postgres', url: 'postgres://waybill:s3cr%40t@db:5432/w', shown: 'postgres://waybill:***@db:5432/w' },
    });
    expect(maskPassword('postgresql://db/w?user=u&password=hunter2&sslmode=require')).toBe('postgresql://db/w?user=u&password=***&sslmode=require');
    expect(maskPassword('postgres://u@db/w')).toBe('postgres://u@db/w');
  });

  it.each([
    ['mysql://root:pw@127.0.0.1/waybill', `--db mysql://root:***@127.0.0.1/waybill: ${SERVED}, not mysql:`],
    ['sqlite:///tmp/x.db', `--db sqlite:///tmp/x.db: ${SERVED}, not sqlite:`],
    ['redis://localhost', `--db redis://localhost: ${SERVED}, not redis:`],
    ['postgres:waybill', `--db postgres:waybill: ${SERVED}, not postgres: (a file whose name has a colon: ./postgres:waybill)`],
    ['file:sandbox.db', `--db file:sandbox.db: ${SERVED}, not file: (a file whose name has a colon: ./file:sandbox.db)`],
    ['', `--db is empty: ${SERVED}`],
  ])('%s is refused in one line naming the schemes waybill serves', (value, message) => {
    expect(parseDbTarget(value)).toEqual({ ok: false, message });
    expect(message).not.toContain('\n');
  });

  it('refuses a PostgreSQL URL that does not parse, masking its password', () => {
    expect(parseDbTarget('postgres://u:pw@[bad/w')).toEqual({ ok: false, message: '--db postgres://u:***@[bad/w: not a PostgreSQL URL (postgres://USER@HOST:PORT/DATABASE)' });
  });
});
