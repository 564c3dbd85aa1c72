/** The parts of `report.html` a certification adds: the certificate header and the waivers of the run. */
import type { Certificate, WaiverStatus } from '../engine/types/report.ts';
import { element, fragment, type Markup } from './markup.ts';

const verdictClass: Record<Certificate['verdict'], string> = { PASS: 'exit-0', FAIL: 'exit-1', INCOMPLETE: 'exit-2' };

/** Name/value rows as a definition list. */
function rows(entries: readonly [string, Markup | string][]): Markup {
  return element('dl', { class: 'meta' }, entries.map(([name, value]) => fragment(element('dt', {}, name), element('dd', {}, value))));
}

/** The certificate header: product, suite version, spec hashes, verdict and signing key. */
export function certificateView(certificate: Certificate): Markup {
  const { product } = certificate;
  return element(
    'section',
    { class: 'certificate', id: 'certificate', 'aria-labelledby': 'certificate-heading' },
    element('h2', { id: 'certificate-heading' }, `Certificate — ${product.product} ${product.version}`),
    element('p', { class: `verdict ${verdictClass[certificate.verdict]}` }, `Verdict: ${certificate.verdict}`),
    certificate.incomplete.length > 0 ? element('ul', { class: 'incomplete' }, certificate.incomplete.map((reason) => element('li', {}, reason))) : null,
    rows([
      ['Vendor', product.vendor],
      ['Product', `${product.product} ${product.version}`],
      ['Contact', product.contact],
      ['Suite', `waybill ${certificate.suiteVersion}`],
      ...Object.entries(certificate.specHashes).map(([file, hash]): [string, Markup] => [file, element('code', {}, `sha256 ${hash}`)]),
      ['Signature', certificate.signature ? element('code', {}, `${certificate.signature.algorithm} ${certificate.signature.keyFingerprint}`) : 'not signed'],
    ]),
    element('p', { class: 'muted' }, 'Check the bundle with `waybill verify BUNDLE --public-key FILE`: it re-hashes every file and checks the signature of manifest.json.'),
  );
}

/** Every waiver of the run with what became of it. */
export function waiversView(statuses: readonly WaiverStatus[]): Markup {
  return element(
    'section',
    { id: 'waivers' },
    element('h2', {}, `Waivers (${statuses.length})`),
    element(
      'table',
      {},
      element('thead', {}, element('tr', {}, ['check', 'status', 'note', 'requirement', 'reason', 'granted by', 'expires', 'link'].map((name) => element('th', { scope: 'col' }, name)))),
      element(
        'tbody',
        {},
        statuses.map(({ waiver, status, note }) =>
          element(
            'tr',
            { 'data-waiver': status },
            element('td', { class: 'id' }, waiver.check),
            element('td', { class: status === 'applied' ? 'o-waived' : status === 'unused' ? 'o-skip' : 'o-fail' }, status),
            element('td', {}, note),
            element('td', { class: 'id' }, waiver.requirement ?? '—'),
            element('td', {}, waiver.reason),
            element('td', {}, waiver.grantedBy),
            element('td', {}, waiver.expires),
            element('td', {}, waiver.link),
          ),
        ),
      ),
    ),
  );
}
