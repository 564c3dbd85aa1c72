/** `waybill keys generate`: an Ed25519 key pair for signing certification bundles. */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { createPublicKey } from 'node:crypto';
import { join } from 'node:path';
import { Command } from 'commander';
import { UsageError } from '../../cli/errors.ts';
import { parseCommandLine, runGroup } from '../../cli/command-line.ts';
import { generateSigningKeys, keyFingerprint } from './keys.ts';

/** The file names `generate` writes into its folder. */
export const PRIVATE_KEY_FILE = 'waybill-signing.key';
export const PUBLIC_KEY_FILE = 'waybill-signing.pub';

const help = `
Writes <dir>/${PRIVATE_KEY_FILE} (PKCS#8 PEM, mode 0600: keep it secret, sign with
--sign-key) and <dir>/${PUBLIC_KEY_FILE} (SPKI PEM: hand it to whoever verifies your bundles).
Existing files are never overwritten. The default folder, .waybill/keys, is git-ignored.

Example:
  $ waybill keys generate --out ~/.config/waybill
  $ waybill conformance --target https://api.example.com --profile profile.json --certify \\
      --product product.json --sign-key ~/.config/waybill/${PRIVATE_KEY_FILE}
`;

/** Writes `text` to a new file; an existing one is a usage error. */
async function writeNew(file: string, text: string, mode: number): Promise<void> {
  try {
    await writeFile(file, text, { mode, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new UsageError(`${file}: the file exists; it is never overwritten (remove it or choose another --out)`);
    throw error;
  }
  await chmod(file, mode);
}

/** Makes the key pair in `dir` and prints where it went and its fingerprint (never the key). */
async function generate(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const keys = generateSigningKeys();
  const privateFile = join(dir, PRIVATE_KEY_FILE);
  const publicFile = join(dir, PUBLIC_KEY_FILE);
  await writeNew(privateFile, keys.privateKey, 0o600);
  await writeNew(publicFile, keys.publicKey, 0o644);
  process.stdout.write(`private key  ${privateFile} (mode 0600: keep it secret)\npublic key   ${publicFile}\nfingerprint  ${keyFingerprint(createPublicKey(keys.publicKey))}\n`);
}

/** `waybill keys generate`'s command line. */
function generateProgram(): Command {
  return new Command('waybill keys generate')
    .description('make an Ed25519 key pair for signing certification bundles (--sign-key); the private key gets mode 0600 and nothing is overwritten')
    .option('--out <dir>', 'folder for the key pair', '.waybill/keys')
    .addHelpText('after', help)
    .exitOverride();
}

const usage = `Usage: waybill keys generate [--out DIR]

Signing keys for certification bundles (waybill conformance --certify --sign-key).
Run \`waybill keys generate --help\` for the options.
`;

/** Runs `waybill keys` with `argv` and resolves to its exit code. */
export function main(argv: string[]): Promise<number> {
  return runGroup('keys', usage, {
    async generate(rest) {
      const command = generateProgram();
      if (!parseCommandLine(command, rest)) return 0;
      await generate(command.opts<{ out: string }>().out);
      return 0;
    },
  }, argv);
}
