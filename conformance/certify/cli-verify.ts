/** `waybill verify BUNDLE`: checks a certification bundle offline and prints what it verified (exit 0 only when all holds). */
import { existsSync } from 'node:fs';
import { Command } from 'commander';
import { UsageError } from '../../cli/errors.ts';
import { counted } from '../../cli/counted.ts';
import { parseCommandLine } from '../../cli/command-line.ts';
import { readPublicKey } from './keys.ts';
import { readBundle } from './read-bundle.ts';
import { verifyBundle, type VerifyLine } from './verify.ts';

const help = `
Checks, without any network:
  files      every file's sha256 against manifest.json; a changed, missing or extra file is named
  signature  the Ed25519 signature of manifest.json (manifest.sig) against --public-key
  verdict    manifest.json, the report's certificate and report.json's results agree, and say PASS

The bundle carries the fingerprint of its signing key, never the key itself: a key shipped
inside the bundle would prove nothing, as whoever changed the bundle could replace it too.
Get the signer's public key apart from the bundle (the vendor's site, the certifying party).
Without --public-key the signer is UNVERIFIED and verify fails, as it does for an unsigned
bundle, unless --allow-unsigned accepts integrity and verdict alone.

Exit codes:
  0  every file, the signature (or --allow-unsigned) and a PASS verdict hold
  1  anything does not: a changed, missing or extra file, a wrong key, an unverified signer,
     a verdict that is not PASS or does not agree with report.json
  2  usage error (no such bundle, an unreadable key)

Examples:
  $ waybill verify reports/acme/certification.tar.gz --public-key acme-signing.pub
  $ waybill verify reports/acme/certification --allow-unsigned
`;

function program(): Command {
  return new Command('waybill verify')
    .description('verify a certification bundle (folder or .tar.gz) offline: file hashes, signature, verdict')
    .argument('<bundle>', 'the bundle folder or its .tar.gz')
    .option('--public-key <file>', "the signer's Ed25519 public key (PEM), as `waybill keys generate` wrote it")
    .option('--allow-unsigned', 'accept a bundle whose signer cannot be verified (unsigned, or no --public-key): integrity and verdict alone')
    .addHelpText('after', help)
    .exitOverride();
}

const marks = { true: '✓', false: '✗', null: ' ' } as const;

/** One printed line: mark (`?` for what an unverified manifest claims, D80), topic, text. */
function printed(line: VerifyLine): string {
  return `  ${line.unverified ? '?' : marks[String(line.ok) as keyof typeof marks]} ${line.topic.padEnd(9)}  ${line.text}`;
}

/** Runs `waybill verify` with `argv` and resolves to its exit code. */
export async function main(argv: string[]): Promise<number> {
  const command = program();
  if (!parseCommandLine(command, argv)) return 0;
  const [path] = command.args as [string];
  const options = command.opts<{ publicKey?: string; allowUnsigned?: boolean }>();
  if (!existsSync(path)) throw new UsageError(`${path}: no such bundle (a folder or a .tar.gz written by waybill conformance --certify)`);
  const publicKey = options.publicKey === undefined ? undefined : { ...readPublicKey(options.publicKey), file: options.publicKey };
  let bundle;
  try {
    bundle = await readBundle(path);
  } catch (error) {
    process.stdout.write(`waybill verify ${path}\n  ✗ bundle     not a readable folder or .tar.gz: ${(error as Error).message}\nNOT VERIFIED\n`);
    return 1;
  }
  const { ok, lines } = verifyBundle(bundle, { ...(publicKey ? { publicKey } : {}), allowUnsigned: options.allowUnsigned === true });
  const failed = lines.filter((line) => line.ok === false).length;
  process.stdout.write(`waybill verify ${path} (${bundle.kind}, ${counted(bundle.files.size, 'file')})\n${lines.map(printed).join('\n')}\n`);
  process.stdout.write(ok ? 'VERIFIED\n' : `NOT VERIFIED: ${counted(failed, 'problem')}\n`);
  return ok ? 0 : 1;
}
