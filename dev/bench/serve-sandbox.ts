/**
 * Benchmark child: the real sandbox — `createApp` and `createHttpServer`, as `waybill
 * serve` runs them, minus the per-request log lines — over a benchmark database.
 * Prints its base URL on stdout; exits cleanly on SIGTERM or SIGINT (so `--cpu-prof` can
 * write its profile).
 *
 * `--request-log off` leaves the request log (D48) out, as `waybill serve --log-retention 0` does.
 *
 *   node --import tsx dev/bench/serve-sandbox.ts --db FILE [--port 0] [--request-log on|off]
 */
import { parseArgs } from 'node:util';
import { createApp } from '../../server/start/app.ts';
import { createHttpServer, listen } from '../../server/http/server.ts';
import { consoleLogger } from '../../server/http/log.ts';
import { makeRequestLog } from '../../server/request-log/recorder.ts';
import { openStore } from '../../server/store/index.ts';

const { values } = parseArgs({ options: { db: { type: 'string' }, port: { type: 'string', default: '0' }, 'request-log': { type: 'string', default: 'on' } } });
if (values.db === undefined) throw new Error('--db FILE is required');
if (values['request-log'] !== 'on' && values['request-log'] !== 'off') throw new Error('--request-log is on or off');

const store = openStore(values.db);
const requestLog = values['request-log'] === 'on' ? makeRequestLog(store.db) : null;
const server = createHttpServer(createApp({ store, log: consoleLogger({ quiet: true }), requestLog }));
process.stdout.write(`${await listen(server, Number(values.port), '127.0.0.1')}\n`);

const stop = () => {
  server.close(async () => {
    await requestLog?.close();
    store.db.close();
    process.exit(0);
  });
  server.closeAllConnections();
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
