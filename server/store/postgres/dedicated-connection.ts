/**
 * A connection of its own to the sandbox's database, outside the store's pool, for what lives
 * as long as a session does (D84): LISTEN (the request log's live tail) and session-level
 * advisory locks (the simulation lease). Opened on first use, and again on the first use after
 * it was lost; whoever uses it hears of a loss, since what the session held went with it.
 */
import pg from 'pg';

/**
 * TCP keepalives the server applies to the session: a peer whose machine or network is gone
 * is found dead in about 25 s (10 idle, then 3 probes 5 s apart), and its session's locks
 * released, instead of after the system's default of two hours. Ignored over a Unix socket,
 * where a dead process's connection closes at once.
 */
const KEEPALIVES = '-c tcp_keepalives_idle=10 -c tcp_keepalives_interval=5 -c tcp_keepalives_count=3';

/** A dedicated connection; `client()` opens it when it is not open. */
export interface DedicatedConnection {
  /** The open connection (opened first, `onOpen` run on it, when it is not); rejects when it cannot be opened now. */
  client(): Promise<pg.Client>;
  /** Whether it is open now. */
  readonly open: boolean;
  /** Ends the session, if open, without a word to `onLost` (what it held goes with it); the next `client()` opens another. */
  reset(): Promise<void>;
  /** Ends the connection; `client()` rejects from then on. */
  close(): Promise<void>;
}

/** What a dedicated connection is opened with. */
export interface DedicatedOptions {
  /** The session's `application_name` (at most 63 characters): what `pg_stat_activity` shows of it. */
  applicationName: string;
  /** Run on each new session before `client()` hands it out: a LISTEN. */
  onOpen?: (client: pg.Client) => Promise<void>;
  /** Called once when an open session is lost (not when closed): what it held is gone. */
  onLost?: (error: Error) => void;
}

/** A dedicated connection to the database at `url`. */
export function dedicatedConnection(url: string, options: DedicatedOptions): DedicatedConnection {
  let opening: Promise<pg.Client> | null = null;
  let current: pg.Client | null = null;
  let closed = false;

  const lost = (client: pg.Client, error: Error) => {
    if (current !== client) return;
    current = null;
    client.end().catch(() => {});
    if (!closed) options.onLost?.(error);
  };

  async function open(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: url, application_name: options.applicationName, options: KEEPALIVES, keepAlive: true });
    // Without a listener, an error of an idle connection (a restart, a terminated backend) would end the process.
    client.on('error', (error) => lost(client, error));
    client.on('end', () => lost(client, new Error('the connection ended')));
    try {
      await client.connect();
      await options.onOpen?.(client);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
      throw error;
    }
    if (closed) {
      await client.end().catch(() => {});
      throw new Error('the connection was closed');
    }
    current = client;
    return client;
  }

  return {
    client() {
      if (closed) return Promise.reject(new Error('the connection was closed'));
      if (current !== null) return Promise.resolve(current);
      opening ??= open().finally(() => (opening = null));
      return opening;
    },
    get open() {
      return current !== null;
    },
    async reset() {
      const client = current;
      current = null;
      await client?.end().catch(() => {});
    },
    async close() {
      closed = true;
      const client = current ?? (await opening?.catch(() => null)) ?? null;
      current = null;
      await client?.end().catch(() => {});
    },
  };
}
