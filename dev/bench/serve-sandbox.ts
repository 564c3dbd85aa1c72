/**
 * Benchmark child: the real sandbox — `startSandbox`, as `waybill serve` starts it, minus
 * the per-request log lines — over a benchmark database.
 * Prints its base URL on stdout; exits cleanly on SIGTERM or SIGINT (so `--cpu-prof` can
 * write its profile).
 *
 * `--request-log off` leaves the request log (D48) out, as `waybill serve --log-retention 0` does.
 *
 *   node --import tsx dev/bench/serve-sandbox.ts --db FILE|URL [--port 0] [--request-log on|off]
 */
import { parseArgs } from 'node:util';
import { consoleLogger } from '../../server/http/log.ts';
import { startSandbox } from '../../server/start/start-sandbox.ts';

const { values } = parseArgs({ options: { db: { type: 'string' }, port: { type: 'string', default: '0' }, 'request-log': { type: 'string', default: 'on' } } });
if (values.db === undefined) throw new Error('--db FILE|URL is required');
if (values['request-log'] !== 'on' && values['request-log'] !== 'off') throw new Error('--request-log is on or off');

const sandbox = await startSandbox({
  store: values.db,
  log: consoleLogger({ quiet: true }),
  logRetention: values['request-log'] === 'off' ? 0 : undefined,
  port: Number(values.port),
});
process.stdout.write(`${sandbox.url}\n`);

const stop = async () => {
  await sandbox.close();
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
