/**
 * What `--certify`, `--product`, `--sign-key` and `--waivers` add to a `waybill conformance`
 * run: checks of the command line, the waiver policy handed to the runner, the certificate
 * added to the report before the reporters write it, and the sealed bundle afterwards.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { UsageError } from '../../cli/errors.ts';
import { packageFile, PACKAGE_VERSION } from '../../spec/package-files.ts';
import type { ReporterName } from '../reporters/index.ts';
import type { Secret } from '../transport/redaction.ts';
import type { ResolvedCheck } from '../engine/types/check.ts';
import type { ExchangeRecord } from '../engine/types/exchange.ts';
import type { Certificate, RunReport, Waiver } from '../engine/types/report.ts';
import { sealBundle, type SealedBundle } from './bundle.ts';
import { readSigningKey } from './keys.ts';
import { certificationVerdict, sha256, SPEC_FILES } from './manifest.ts';
import { readValidated } from './schema-file.ts';
import { loadWaivers, utcDate, type WaiverPolicy, waiverPolicy } from './waivers.ts';

/** The options of `waybill conformance` this module reads. */
export interface CertifyOptions {
  certify?: boolean;
  product?: string;
  signKey?: string;
  waivers?: string;
  only: string[];
  skip: string[];
  level?: string;
  strict?: boolean;
  concurrency: number;
  timeout: number;
  fuzz: number;
  viaPrism?: boolean;
  provision?: boolean;
  reporter: ReporterName[];
}

/** The bundle's folder inside `--out`; its archive is the same name with `.tar.gz`. */
export const BUNDLE_FOLDER = 'certification';

/** Refuses what a certification cannot have: a partial run, or no product. */
export function validateCertifyOptions(options: CertifyOptions): void {
  if (!options.certify) {
    for (const [flag, value] of [['--product', options.product], ['--sign-key', options.signKey]] as const) {
      if (value !== undefined) throw new UsageError(`${flag} is only used with --certify`);
    }
    return;
  }
  if (options.only.length > 0) throw new UsageError('--certify runs every check: --only is refused');
  if (options.skip.length > 0) throw new UsageError('--certify runs every check: --skip is refused');
  if (options.level !== undefined) throw new UsageError('--certify runs every level: --level is refused');
  if (options.product === undefined) throw new UsageError('--certify needs --product FILE: the vendor, product, version and contact the certificate names (conformance/certify/product.schema.json)');
}

/** What a run needs from this module. */
export interface RunExtras {
  /** Where the reporters write: the bundle's folder under --certify, else --out. */
  reportDir: string;
  reporters: ReporterName[];
  waive?: (check: ResolvedCheck) => Waiver | undefined;
  onExchanges(exchanges: readonly ExchangeRecord[]): void;
  /** The report with what became of the waivers and, under --certify, the certificate. */
  finishReport(report: RunReport): RunReport;
  /** Seals the bundle (under --certify); `secrets` are every secret of the run, none of which may be in it. */
  seal(report: RunReport, secrets: readonly Secret[]): Promise<SealedBundle | null>;
}

/** The secrets of a PEM private key as they could leak: its base64 body. */
function keySecrets(pem: string): Secret[] {
  const body = pem.split('\n').filter((line) => line !== '' && !line.startsWith('-----')).join('');
  return [{ value: body, name: 'signingKey', envVar: 'WAYBILL_SIGNING_KEY' }];
}

/** The certificate's product and signing key, read and checked (null without --certify); a bad file is a usage error. */
export function readCertifyFiles(options: CertifyOptions): { product: Certificate['product'] | null; signing: ReturnType<typeof readSigningKey> | null } {
  const certify = options.certify === true;
  const product = certify ? readValidated<Certificate['product']>(options.product as string, 'conformance/certify/product.schema.json', 'json', 'product file') : null;
  const signing = certify && options.signKey !== undefined ? readSigningKey(options.signKey) : null;
  return { product, signing };
}

/** Loads product, key and waivers and returns the hooks of the run (see RunExtras). */
export function prepareRun(options: CertifyOptions, outDir: string, checkIds: ReadonlySet<string>, startedAt = new Date()): RunExtras {
  const certify = options.certify === true;
  const waivers = options.waivers === undefined ? null : loadWaivers(options.waivers, checkIds);
  const policy: WaiverPolicy | null = waivers === null ? null : waiverPolicy(waivers, { today: utcDate(startedAt), certify });
  const { product, signing } = readCertifyFiles(options);
  const bundleDir = join(outDir, BUNDLE_FOLDER);
  if (certify && (existsSync(bundleDir) || existsSync(`${bundleDir}.tar.gz`))) throw new UsageError(`${bundleDir}: a bundle is already there; give a new --out (a bundle is never overwritten)`);
  let exchanges: readonly ExchangeRecord[] = [];
  return {
    reportDir: certify ? bundleDir : outDir,
    reporters: certify ? [...new Set<ReporterName>([...options.reporter, 'json', 'junit', 'html'])] : options.reporter,
    ...(policy === null ? {} : { waive: (check: ResolvedCheck) => policy.waive(check) }),
    onExchanges: (all) => {
      exchanges = all;
    },
    finishReport(report) {
      const finished: RunReport = policy === null ? report : { ...report, waivers: policy.statuses(report.results) };
      if (product === null) return finished;
      const specHashes = Object.fromEntries(SPEC_FILES.map((file) => [file, sha256(readFileSync(packageFile(file)))]));
      const signature = signing === null ? null : { algorithm: 'Ed25519' as const, keyFingerprint: signing.fingerprint };
      return { ...finished, certificate: { product, suiteVersion: PACKAGE_VERSION, specHashes, ...certificationVerdict(finished), signature } };
    },
    async seal(report, secrets) {
      if (report.certificate === undefined) return null;
      return sealBundle({
        dir: bundleDir,
        report: report as RunReport & { certificate: Certificate },
        exchanges,
        waivers,
        options: {
          certify: true,
          profile: options.provision ? 'provisioned' : 'file',
          level: report.options.level,
          strict: report.options.strict,
          concurrency: report.options.concurrency,
          timeoutMs: report.options.timeoutMs,
          fuzz: options.fuzz,
          viaPrism: options.viaPrism === true,
          waivers: options.waivers === undefined ? null : basename(options.waivers),
          signed: signing !== null,
        },
        secrets: [...secrets, ...(signing === null ? [] : keySecrets(signing.pem))],
        signingKey: signing?.privateKey ?? null,
      });
    },
  };
}
