/**
 * A TCP proxy in front of PostgreSQL that gives every statement database latency (a loaded
 * run, loaded-suite.ts): while `latency` is on, each chunk a client sends is held for a fresh
 * draw before it is passed on, and never overtakes the chunk before it on its connection (it
 * leaves at its own time or right after its predecessor, whichever is later). The server's
 * answers pass at once. A statement is a chunk (pg writes a query's messages at once), so
 * each round trip of a unit of work pays once, as on a slow network; so do BEGIN, COMMIT and
 * the lock a tenant's write takes. The sandbox is pointed at the proxy's URL and knows nothing
 * of it: the workers of `waybill serve --workers 2` go through it too.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Latency } from './latency.ts';

/** A running latency proxy. */
export interface SlowProxy {
  /** The database URL given, its host and port the proxy's. */
  url: string;
  close(): Promise<void>;
}

/** Forwards what `client` sends to `upstream`, each chunk held by `latency` (while on), in order. */
function forwardSlowly(client: Socket, upstream: Socket, latency: Latency): void {
  const queue: { chunk: Buffer; at: number }[] = [];
  let timer: NodeJS.Timeout | undefined;
  let ended = false;
  const flush = () => {
    timer = undefined;
    while (queue.length > 0 && queue[0]!.at <= Date.now()) upstream.write(queue.shift()!.chunk);
    if (queue.length > 0) timer = setTimeout(flush, queue[0]!.at - Date.now());
    else if (ended) upstream.end();
  };
  client.on('data', (chunk: Buffer) => {
    const previous = queue.at(-1)?.at ?? 0;
    queue.push({ chunk, at: Math.max(Date.now() + (latency.on ? latency.draw() : 0), previous) });
    if (timer === undefined) flush();
  });
  client.on('end', () => {
    ended = true;
    if (timer === undefined) flush();
  });
  client.on('close', () => clearTimeout(timer));
}

/** Starts a latency proxy on a free port of 127.0.0.1 in front of the PostgreSQL server of `databaseUrl`. */
export async function startSlowProxy(databaseUrl: string, latency: Latency): Promise<SlowProxy> {
  const target = new URL(databaseUrl);
  const sockets = new Set<Socket>();
  const server: Server = createServer({ allowHalfOpen: true }, (client) => {
    const upstream = connect({ host: target.hostname, port: Number(target.port || 5432), allowHalfOpen: true });
    for (const [socket, other] of [[client, upstream], [upstream, client]] as const) {
      sockets.add(socket);
      socket.on('error', () => other.destroy());
      socket.on('close', () => {
        sockets.delete(socket);
        other.destroy();
      });
    }
    forwardSlowly(client, upstream, latency);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
