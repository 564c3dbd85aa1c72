/** `waybill verify BUNDLE`: checks a certification bundle offline and prints what it verified (exit 0 only when all holds). */
import { Command } from 'commander';
import { counted } from '../../cli/counted.ts';
import { parseCommandLine } from '../../cli/command-line.ts';
import { readPublicKey } from './keys.ts';
import { type BundleContents, readBundle } from './read-bundle.ts';
import { type Verification, verdictOf, verifyBundle, type VerifyLine } from './verify.ts';

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

Every outcome ends with one verdict line: VERIFIED, or NOT VERIFIED naming the items that failed.

Exit codes:
  0  every file, the signature (or --allow-unsigned) and a PASS verdict hold
  1  anything does not: a changed, missing or extra file, a wrong key, an unverified signer,
     a verdict that is not PASS or does not agree with report.json, and a path that is no
     bundle: nothing there, or neither a folder nor a .tar.gz of one (D49)
  2  usage error: an unknown option, no bundle named, a --public-key that cannot be read

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

/** The bundle at `path`, or the one failed line saying why nothing there can be read as one (D49: exit 1, as any bundle that fails). */
async function bundleAt(path: string): Promise<BundleContents | VerifyLine> {
  try {
    return await readBundle(path);
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    const why = code === 'ENOENT' ? 'nothing there (no such file or folder)' : `not a folder or a .tar.gz of one (${message})`;
    return { ok: false, topic: 'bundle', text: `${path}: ${why}` };
  }
}

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
  const publicKey = options.publicKey === undefined ? undefined : { ...readPublicKey(options.publicKey), file: options.publicKey };
  const bundle = await bundleAt(path);
  let verification: Verification;
  if ('files' in bundle) {
    verification = verifyBundle(bundle, { ...(publicKey ? { publicKey } : {}), allowUnsigned: options.allowUnsigned === true });
    process.stdout.write(`waybill verify ${path} (${bundle.kind}, ${counted(bundle.files.size, 'file')})\n`);
  } else {
    verification = verdictOf([bundle]);
    process.stdout.write(`waybill verify ${path}\n`);
  }
  process.stdout.write(`${verification.lines.map(printed).join('\n')}\n${verification.verdict}\n`);
  return verification.ok ? 0 : 1;
}
