/**
 * `waybill profile`: what a saved conformance profile (`--save-profile FILE`) is used for
 * again. `refill` tops its pools up through the control plane so the next run has fresh
 * orders (D67); `env` prints the `export WAYBILL_KEY_…=` lines that give the reports' replay
 * lines their keys (D67).
 */
import { chmod, rename, writeFile } from 'node:fs/promises';
import { Command, InvalidArgumentError } from 'commander';
import { parseCommandLine, runGroup } from '../../cli/command-line.ts';
import { WaybillError } from '../../cli/errors.ts';
import { shellQuote } from '../../cli/shell-quote.ts';
import { packageFile } from '../../spec/package-files.ts';
import { loadProfile } from './profile.ts';
import { profileSecrets } from '../transport/redaction.ts';
import type { Profile } from '../engine/types/profile.ts';
import { refillPools } from './pool-refill.ts';

const usage = `Usage: waybill profile <env|refill> FILE

Use a saved conformance profile (waybill conformance --provision --save-profile FILE) again.
  env FILE      print export lines of its keys, named as the reports' replay lines name them
  refill FILE   top its order pools up again through the target's control plane
Run \`waybill profile <env|refill> --help\` for the options.
`;

/**
 * The `export NAME='value'` lines of the profile's secrets, one a line, named as the replay
 * lines name them (`WAYBILL_KEY_FULL`, …, `WAYBILL_SANDBOX_TOKEN`; transport/redaction.ts), each value
 * quoted as one shell word.
 */
export function exportLines(profile: Profile): string {
  return profileSecrets(profile).map(({ envVar, value }) => `export ${envVar}=${shellQuote(value)}\n`).join('');
}

/**
 * The line a run prints to set the replay variables from `file` in the user's shell: it runs
 * this very waybill (no `npx` lookup), and the keys never pass through waybill's output.
 */
export function profileEnvLine(file: string): string {
  return `eval "$(node ${shellQuote(packageFile('bin/waybill.js'))} profile env ${shellQuote(file)})"`;
}

/** Replaces `file` with `profile` (mode 0600, it holds keys) in one rename, so a reader never sees half of it. */
async function rewriteProfile(file: string, profile: Profile): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(profile, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  await chmod(temporary, 0o600);
  await rename(temporary, file);
}

/** A timeout option in milliseconds. */
function milliseconds(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('must be an integer of at least 1');
  return Number(value);
}

async function env(argv: string[]): Promise<number> {
  const command = new Command('waybill profile env')
    .description('print `export WAYBILL_KEY_…=` lines for the keys of a saved profile, for the replay lines of its reports')
    .argument('<file>', 'a conformance profile (JSON)')
    .addHelpText('after', '\nExample:\n  $ eval "$(npx waybill profile env .waybill/profile.json)"\n')
    .exitOverride();
  if (!parseCommandLine(command, argv)) return 0;
  process.stdout.write(exportLines(loadProfile(command.args[0]!)));
  return 0;
}

async function refill(argv: string[]): Promise<number> {
  const command = new Command('waybill profile refill')
    .description("top a saved profile's order pools up to their sizes again through its target's control plane, and rewrite the file (mode 0600)")
    .argument('<file>', 'a conformance profile with target and sandbox (as --save-profile writes it)')
    .option('--timeout <ms>', 'timeout of each request in milliseconds', milliseconds, 30_000)
    .addHelpText('after', '\nExample:\n  $ waybill profile refill .waybill/profile.json\n  $ waybill conformance --target http://127.0.0.1:4000 --profile .waybill/profile.json\n')
    .exitOverride();
  if (!parseCommandLine(command, argv)) return 0;
  const file = command.args[0]!;
  const { profile, refills } = await refillPools(loadProfile(file), file, command.opts<{ timeout: number }>().timeout);
  try {
    await rewriteProfile(file, profile);
  } catch (error) {
    throw new WaybillError(`${file}: cannot rewrite the profile (${(error as Error).message})`, 'tool');
  }
  const lines = refills.map(({ pool, kept, added }) => `  orders.${pool.padEnd(15)} ${kept + added} ids: ${kept} kept, ${added} new`);
  process.stdout.write(`refilled ${file}:\n${lines.join('\n')}\n`);
  return 0;
}

/** Runs `waybill profile` with `argv` and resolves to its exit code. */
export function main(argv: string[]): Promise<number> {
  return runGroup('profile', usage, { env, refill }, argv);
}
