/** `waybill mock`: a stateless Prism mock of spec/openapi.yaml on 127.0.0.1:4010. */
import { Command } from 'commander';
import { parseCommandLine, portNumber } from '../cli/command-line.ts';
import { UsageError } from '../cli/errors.ts';
import { startMock } from './server.ts';

function command(): Command {
  return new Command('waybill mock')
    .description('Serve the examples of spec/openapi.yaml with Stoplight Prism: every operation answers at once, with no state.')
    .option('--port <n>', 'port to listen on', portNumber(1), 4010)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--dynamic', 'generate answers from the schemas instead of serving the examples', false)
    .option('--seed <seed>', 'seed for --dynamic, so generated answers repeat')
    .option('--verbose', "show Prism's own log (one block per request)", false)
    .addHelpText(
      'after',
      `
Pick an answer with the Prefer header:
  Prefer: code=404                 the operation's 404 example (to a request the contract accepts)
  Prefer: example=caughtUp         a named example (see spec/openapi.yaml)
  Prefer: dynamic=true             a generated answer for this request

A request the contract refuses gets the 400 the sandbox answers, naming each field that failed.
Feed pages hold at most limit items; generated orders and trips hold together (no order updated
before it was created, each short id and tag once, trip ids apart from order ids).

Examples:
  waybill mock
  waybill mock --port 4100 --dynamic --seed 42
  curl -H 'X-Api-Key: any' -H 'Prefer: example=caughtUp' http://127.0.0.1:4010/api/v1/integration/orders
`,
    )
    .exitOverride();
}

/** Runs the mock until SIGINT or SIGTERM; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const program = command();
  if (!parseCommandLine(program, argv)) return 0;
  const options = program.opts<{ port: number; host: string; dynamic: boolean; seed?: string; verbose: boolean }>();
  if (options.seed !== undefined && !options.dynamic) throw new UsageError('--seed only applies with --dynamic');
  const mock = await startMock({ ...options, inherit: true });
  process.stdout.write(
    [
      `waybill mock (Prism) listening on ${mock.url}`,
      `  serving the examples of spec/openapi.yaml${options.dynamic ? ` as generated data${options.seed ? ` (seed ${options.seed})` : ''}` : ''}; no state is kept`,
      '  every operation needs a key: any non-empty X-Api-Key works',
      "  pick an answer with 'Prefer: code=404', 'Prefer: example=caughtUp' or 'Prefer: dynamic=true'",
      '  GET /health answers without a key, as the sandbox does (waybill wait waits for it)',
      '',
      `  curl -s -H 'X-Api-Key: any' '${mock.url}/api/v1/integration/orders'`,
      '',
    ].join('\n'),
  );
  const code = await new Promise<number>((resolve) => {
    const stop = () => void mock.stop().then(() => resolve(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    mock.prism.child.once('exit', (exitCode) => void mock.stop().then(() => resolve(exitCode ?? 0)));
  });
  return code;
}
