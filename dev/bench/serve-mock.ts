/**
 * Benchmark child: the peer of `npm run bench -- --peers`, `waybill mock` as a user runs it
 * (its front server in this process, Stoplight Prism as a child of it), serving the contract's
 * examples. Prints its base URL on stdout; stops Prism and exits on SIGTERM or SIGINT. The
 * bench counts this process's CPU and its children's (Prism) together.
 *
 *   node --import tsx dev/bench/serve-mock.ts
 */
import { served } from './served.ts';

// The mock as `waybill mock` runs it: compiled, unless WAYBILL_BENCH_CODE=sources (served.ts).
const { startMock } = await served<typeof import('../../mock/server.ts')>('mock/server');

const mock = await startMock({ dynamic: false, verbose: false, port: 0 });
process.stdout.write(`${mock.url}\n`);

const stop = async () => {
  await mock.stop();
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
