/**
 * The live tail of the request log on PostgreSQL (D84), whichever process wrote the entries:
 * each writer's batch NOTIFYs the tenants it wrote (postgres-table.ts), this process LISTENs on
 * a connection of its own (opened when its first stream opens), and for each tenant someone
 * here streams it reads the entries after the last id it handed on. Entries commit in the
 * order of their ids (the log's write lock), so reading "after the last id" never skips one.
 */
import { dedicatedConnection } from '../store/postgres/dedicated-connection.ts';
import { REQUEST_LOG_CHANNEL } from '../store/postgres/locks.ts';
import type { PostgresSql } from '../store/postgres/sql.ts';
import type { LogListener } from './sink.ts';
import { makeRequestLogReads } from './store.ts';

/** How many entries one read of a tenant's tail takes; it reads again while a read comes back full. */
const READ_LIMIT = 500;
/** How long after losing its connection the tail opens another, and reads what it missed meanwhile. */
const REOPEN_MS = 1000;

/** The streams of one tenant in this process, and how far they got. */
interface Tail {
  listeners: Set<LogListener>;
  /** The last id handed on; set once listening began. */
  cursor: number;
  /** The reads, one after another. */
  chain: Promise<void>;
  /** A read is queued and not begun: another notification adds nothing. */
  queued: boolean;
}

// requirement: D84
/** The tails of this process over the sandbox's database; `onError` hears what failed. */
export function makePostgresTail(sql: PostgresSql, onError: (error: unknown) => void) {
  const reads = makeRequestLogReads(sql);
  const tails = new Map<string, Tail>();
  let closed = false;
  let reopening: NodeJS.Timeout | null = null;

  /** Reads the tenant's entries after its cursor and hands them on, once the reads before it are done. */
  function pull(tenantId: string, tail: Tail): void {
    if (tail.queued) return;
    tail.queued = true;
    tail.chain = tail.chain
      .then(async () => {
        tail.queued = false;
        for (let rows = READ_LIMIT; rows === READ_LIMIT && tails.get(tenantId) === tail && !closed; ) {
          const entries = await reads.after(tenantId, tail.cursor, READ_LIMIT);
          rows = entries.length;
          if (rows === 0) break;
          tail.cursor = entries[rows - 1]!.id;
          for (const listener of tail.listeners) listener(entries);
        }
      })
      .catch(onError);
  }

  const pullAll = () => {
    for (const [tenantId, tail] of tails) pull(tenantId, tail);
  };

  const connection = dedicatedConnection(sql.url, {
    applicationName: `waybill request log tail pid ${process.pid}`,
    async onOpen(client) {
      client.on('notification', (message) => {
        if (message.channel !== REQUEST_LOG_CHANNEL) return;
        if (message.payload === '*') return pullAll();
        for (const tenantId of (message.payload ?? '').split(',')) {
          const tail = tails.get(tenantId);
          if (tail !== undefined) pull(tenantId, tail);
        }
      });
      await client.query(`LISTEN ${REQUEST_LOG_CHANNEL}`);
    },
    // Notifications sent while no connection listened are lost: listen again soon, then read what was written meanwhile.
    onLost: () => reopen(),
  });

  function reopen(): void {
    if (closed || reopening !== null || tails.size === 0) return;
    reopening = setTimeout(() => {
      reopening = null;
      connection.client().then(pullAll, (error: unknown) => {
        onError(error);
        reopen();
      });
    }, REOPEN_MS);
    reopening.unref();
  }

  return {
    /**
     * Hands `listener` the tenant's entries written from now on, by any process, oldest first;
     * resolves to the unsubscribe once listening (an entry written later is never missed).
     */
    async subscribe(tenantId: string, listener: LogListener): Promise<() => void> {
      let tail = tails.get(tenantId);
      if (tail === undefined) {
        const fresh: Tail = { listeners: new Set(), cursor: 0, chain: Promise.resolve(), queued: false };
        // Listening first, then the newest id: an entry committed between the two is read on its notification.
        fresh.chain = connection
          .client()
          .then(() => reads.latest(tenantId))
          .then((id) => void (fresh.cursor = id));
        tails.set(tenantId, fresh);
        tail = fresh;
      }
      const mine = tail;
      mine.listeners.add(listener);
      const unsubscribe = () => {
        mine.listeners.delete(listener);
        if (mine.listeners.size === 0 && tails.get(tenantId) === mine) tails.delete(tenantId);
      };
      try {
        await mine.chain;
      } catch (error) {
        unsubscribe();
        throw error;
      }
      return unsubscribe;
    },
    /** Stops listening. */
    async close(): Promise<void> {
      closed = true;
      if (reopening !== null) clearTimeout(reopening);
      tails.clear();
      await connection.close();
    },
  };
}
