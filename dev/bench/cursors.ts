/**
 * Feed positions to request: cursors at random live orders (each leaving a full page after
 * it) and the caught-up cursor at the feed's last item. Both servers share the database's
 * cursor secret and tenant, so one list of cursors serves both.
 */
import Database from 'better-sqlite3';
import { makeCursorCodec } from '../../server/domain/cursor.ts';
import type { Db } from '../../server/store/db.ts';
import type { FeedPosition } from '../../server/store/feed-sql.ts';
import { prng } from './synth-orders.ts';

/** The cursor signing key the sandbox keeps in the database's meta table (see `Store.secret`). */
export function readCursorSecret(db: Db): Buffer {
  const value = db.prepare<[], string>("SELECT value FROM meta WHERE key = 'secret:cursor'").pluck().get();
  if (value === undefined) throw new Error('the database has no cursor secret; rebuild it with --rebuild');
  return Buffer.from(value, 'base64');
}

/** Cursors into the tenant's order feed of one database. */
export interface FeedCursors {
  /** Random positions, each with at least one full page after it. */
  pages: string[];
  /** The position of the feed's last item: its page is empty, with `nextCursor: null`. */
  caughtUp: string;
}

const before = (a: FeedPosition, b: FeedPosition) => a.updatedAt < b.updatedAt || (a.updatedAt === b.updatedAt && a.id < b.id);

/** `count` cursors at random live orders of the file's tenant (the same ones on every run), and the caught-up cursor. */
export function sampleCursors(file: string, tenantId: string, count: number, pageSize: number): FeedCursors {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const codec = makeCursorCodec(readCursorSecret(db));
    const fromEnd = db.prepare<[string, number], FeedPosition>(
      `SELECT updated_at AS updatedAt, id FROM orders WHERE tenant_id = ? AND archived_at IS NULL
       ORDER BY updated_at DESC, id DESC LIMIT 1 OFFSET ?`,
    );
    const last = fromEnd.get(tenantId, 0);
    const cutoff = fromEnd.get(tenantId, pageSize);
    if (last === undefined || cutoff === undefined) throw new Error(`${file} has fewer than ${pageSize + 1} live orders`);
    const maxRowid = db.prepare<[], number>('SELECT max(rowid) FROM orders').pluck().get()!;
    const atRowid = db.prepare<[number, string], FeedPosition>(
      'SELECT updated_at AS updatedAt, id FROM orders WHERE rowid = ? AND tenant_id = ? AND archived_at IS NULL',
    );
    const random = prng(count);
    const pages: string[] = [];
    for (let tries = 0; pages.length < count && tries < count * 100; tries++) {
      const position = atRowid.get(1 + Math.floor(random() * maxRowid), tenantId);
      if (position !== undefined && before(position, cutoff)) pages.push(codec.encode('orders', tenantId, position));
    }
    return { pages, caughtUp: codec.encode('orders', tenantId, last) };
  } finally {
    db.close();
  }
}
