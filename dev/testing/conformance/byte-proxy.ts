/**
 * Test support: a byte-level proxy in front of a target, for requests the HTTP proxy cannot
 * carry (a body cut off by a half-close, a body held half-sent). A client that half-closes is
 * passed on as a half-close, or hung up on unanswered with `hangUp` (a server that drops a
 * cut-off body); `answer` rewrites the upstream's bytes on their way back; `refuse` may answer a
 * request itself from its head (request line and headers), without passing it on; with it, a
 * connection carries one request (`Connection: close` is set on each head passed on, unless its
 * body is big), so that every request's head is seen; a head cut short by the client's
 * half-close is passed on as it came.
 */
import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A running byte proxy. */
export interface RunningByteProxy {
  url: string;
  close(): Promise<void>;
}

/** Starts a byte-level proxy to `targetUrl` on an ephemeral loopback port. */
export async function startByteProxy(targetUrl: string, options: { hangUp?: boolean; answer?: (text: string) => string; refuse?: (head: string) => string | undefined } = {}): Promise<RunningByteProxy> {
  const { hostname, port } = new URL(targetUrl);
  const sockets = new Set<Socket>();
  const server = createServer({ allowHalfOpen: true }, (client) => {
    const upstream = connect({ host: hostname, port: Number(port), allowHalfOpen: true });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    // The bytes of a head still being read (refuse); '' once it was passed on or refused.
    let pending = '';
    if (options.refuse === undefined) client.pipe(upstream, { end: false });
    else {
      const onData = (chunk: Buffer) => {
        pending += chunk.toString('latin1');
        if (!pending.includes('\r\n\r\n') && pending.length < 16_384) return;
        client.off('data', onData);
        const whole = pending;
        pending = '';
        const refusal = options.refuse?.(whole.slice(0, whole.indexOf('\r\n\r\n')));
        if (refusal !== undefined) {
          upstream.destroy();
          client.end(refusal);
          return;
        }
        // A big upload keeps its connection as sent: a server that refuses it early may close
        // while the client still writes, which a close we asked for would make certain.
        const end = whole.indexOf('\r\n\r\n');
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(whole.slice(0, end))?.[1] ?? 0);
        const closing = length > 65_536 ? whole : `${whole.slice(0, end).replace(/\r\nconnection:[^\r]*/i, '')}\r\nConnection: close${whole.slice(end)}`;
        upstream.write(Buffer.from(closing, 'latin1'));
        client.pipe(upstream, { end: false });
      };
      client.on('data', onData);
    }
    upstream.on('data', (chunk: Buffer) => client.write(options.answer ? Buffer.from(options.answer(chunk.toString('latin1')), 'latin1') : chunk));
    upstream.on('end', () => client.end());
    client.on('end', () => {
      if (options.hangUp) {
        client.destroy();
        upstream.destroy();
      } else upstream.end(Buffer.from(pending, 'latin1'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
