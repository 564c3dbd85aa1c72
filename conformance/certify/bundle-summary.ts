/** The lines `waybill conformance --certify` prints once the bundle is sealed. */
import type { SealedBundle } from './bundle.ts';

/** Where the bundle is, its verdict and who signed it. */
export function bundleSummary({ dir, archive, manifest }: SealedBundle): string {
  const signer = manifest.signature === null ? 'unsigned (waybill verify needs --allow-unsigned)' : `signed with Ed25519 key ${manifest.signature.keyFingerprint}`;
  return [
    `Certification bundle: ${manifest.verdict} — ${manifest.product.product} ${manifest.product.version} (${manifest.product.vendor}), ${signer}`,
    `  ${dir}/`,
    `  ${archive}`,
    ...manifest.incomplete.slice(0, 10).map((reason) => `  incomplete: ${reason}`),
    ...(manifest.incomplete.length > 10 ? [`  … and ${manifest.incomplete.length - 10} more in manifest.json`] : []),
    `Check it with: waybill verify ${archive}${manifest.signature === null ? ' --allow-unsigned' : ' --public-key SIGNER.pub'}`,
  ].join('\n');
}
