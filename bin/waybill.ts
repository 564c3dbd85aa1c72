/**
 * The `waybill` command: one dispatcher for every subcommand. Each subcommand lives in
 * its own part of the tree and is loaded only when asked for, so `waybill --help` stays fast.
 */
import { quitOnBrokenPipe } from '../cli/broken-pipe.ts';
import { pointUsageErrorsAt, reportToolError } from '../cli/errors.ts';

/** What a subcommand module exports: run with the arguments after its name, resolve to an exit code. */
export interface SubcommandModule {
  main(argv: string[]): Promise<number>;
}

interface Subcommand {
  summary: string;
  load: () => Promise<SubcommandModule>;
}

const subcommands: Record<string, Subcommand> = {
  serve: { summary: 'run the reference sandbox (SQLite) on 127.0.0.1:4000', load: () => import('../server/start/serve.ts') },
  mock: { summary: 'run a stateless Prism mock of spec/openapi.yaml on 127.0.0.1:4010', load: () => import('../mock/cli.ts') },
  wait: { summary: 'wait until a URL answers 2xx (a sandbox or mock started in the background, a deployed server)', load: () => import('../cli/wait.ts') },
  conformance: {
    summary: 'run the conformance suite against any base URL and write reports',
    load: () => import('../conformance/cli.ts'),
  },
  'client-check': {
    summary: "grade an integrator's client: run it through failure scenarios, grade it from the request log",
    load: () => import('../conformance/client-check/cli.ts'),
  },
  replay: {
    summary: "run a report's failed checks again (same engine, target, seed): FIXED, STILL FAILING or NOT REPRODUCED",
    load: () => import('../conformance/replay/cli.ts'),
  },
  profile: {
    summary: 'use a saved conformance profile again: refill its order pools, export its keys for replay lines',
    load: () => import('../conformance/setup/profile-cli.ts'),
  },
  keys: { summary: 'make an Ed25519 key pair that signs certification bundles (keys generate)', load: () => import('../conformance/certify/cli-keys.ts') },
  verify: { summary: 'verify a certification bundle offline: file hashes, signature, verdict', load: () => import('../conformance/certify/cli-verify.ts') },
  fixtures: { summary: 'write a deterministic dataset made from a seed', load: () => import('../fixtures/cli.ts') },
};

function usage(): string {
  const width = Math.max(...Object.keys(subcommands).map((name) => name.length));
  const lines = Object.entries(subcommands).map(
    ([name, { summary }]) => `  ${name.padEnd(width)}  ${summary}`,
  );
  return [
    'Usage: waybill <command> [options]',
    '',
    'Sandbox, mock and conformance kit for the Delivery Integration API.',
    '',
    'Commands:',
    ...lines,
    '',
    'Run `waybill <command> --help` for the options of a command.',
    '',
  ].join('\n');
}

/** Dispatches `argv` (without node and script) and resolves to the process exit code. */
export async function dispatch(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  // `waybill help <command>` is `waybill <command> --help`.
  if (name === 'help' && rest[0] !== undefined && Object.hasOwn(subcommands, rest[0])) return dispatch([rest[0], '--help']);
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    const { PACKAGE_VERSION } = await import('../spec/package-files.ts');
    process.stdout.write(`${PACKAGE_VERSION}\n`);
    return 0;
  }
  const subcommand = subcommands[name];
  if (subcommand === undefined) {
    process.stderr.write(`waybill: unknown command '${name}' (see waybill --help)\n`);
    return 2;
  }
  pointUsageErrorsAt(`waybill ${name}`);
  try {
    const module = await subcommand.load();
    return await module.main(rest);
  } catch (error) {
    return reportToolError(error);
  }
}

// A reader that stops early (`waybill conformance --help | head -3`) closes the pipe: stop
// quietly, as Unix tools do, instead of a stack trace for the EPIPE (serve and conformance
// go on to their own end instead: cli/broken-pipe.ts).
quitOnBrokenPipe();
process.exitCode = await dispatch(process.argv.slice(2));
