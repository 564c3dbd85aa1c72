/**
 * Benchmark child: the real sandbox — `startSandbox`, as `waybill serve` starts it, minus
 * the per-request log lines — over a benchmark database.
 * Prints its base URL on stdout; exits cleanly on SIGTERM or SIGINT (so `--cpu-prof` can
 * write its profile).
 *
 * `--request-log off` leaves the request log (D48) out, as `waybill serve --log-retention 0` does.
 * `--workers N` runs N processes on one port with node:cluster, as `waybill serve --workers N`
 * does (D83; PostgreSQL only): this process forks them and prints the URL once all listen.
 *
 *   node --import tsx dev/bench/serve-sandbox.ts --db FILE|URL [--port 0] [--request-log on|off] [--workers N]
 */
import cluster from 'node:cluster';
import { parseArgs } from 'node:util';
import { served } from './served.ts';

// The server as `waybill serve` runs it: compiled, unless WAYBILL_BENCH_CODE=sources (served.ts).
const { consoleLogger } = await served<typeof import('../../server/http/log.ts')>('server/http/log');
const { startSandbox } = await served<typeof import('../../server/start/start-sandbox.ts')>('server/start/start-sandbox');

const { values } = parseArgs({ options: { db: { type: 'string' }, port: { type: 'string', default: '0' }, 'request-log': { type: 'string', default: 'on' }, workers: { type: 'string', default: '1' } } });
if (values.db === undefined) throw new Error('--db FILE|URL is required');
if (values['request-log'] !== 'on' && values['request-log'] !== 'off') throw new Error('--request-log is on or off');
const workers = Number(values.workers);
if (!Number.isInteger(workers) || workers < 1) throw new Error('--workers is a whole number of at least 1');

if (workers > 1 && cluster.isPrimary) {
  // The workers share one port; the URL is printed once every one of them listens.
  const listening = new Set<number>();
  cluster.on('listening', (worker, address) => {
    listening.add(worker.id);
    if (listening.size === workers) process.stdout.write(`http://127.0.0.1:${address.port}\n`);
  });
  cluster.on('exit', (worker, code, signal) => {
    if (!stopping) process.stderr.write(`bench worker ${worker.process.pid} ended (${signal ?? code})\n`);
  });
  for (let n = 0; n < workers; n++) cluster.fork();
  let stopping = false;
  const stop = () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    cluster.on('exit', () => {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    });
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
} else {
  const sandbox = await startSandbox({
    store: values.db,
    log: consoleLogger({ quiet: true }),
    logRetention: values['request-log'] === 'off' ? 0 : undefined,
    port: Number(values.port),
  });
  if (cluster.isPrimary) process.stdout.write(`${sandbox.url}\n`);

  const stop = async () => {
    await sandbox.close();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
