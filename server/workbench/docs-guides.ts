/**
 * The guides under `docs/`, one per task, served offline at `/docs/guides/<name>` from the
 * package's own files, and the README as their front page at `/docs/guides`. Each is rendered
 * by the docs' one Markdown setup (markdown.ts); a link written for a reader of the repository
 * (`vendor.md#exit-codes`, `../spec/DECISIONS.md#d55`, `images/console-trips.png`) leads to the
 * page the sandbox serves for it, and a link to a file it does not serve shows its text alone.
 */
import { existsSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { element, renderedHtml } from '../../conformance/reporters/markup.ts';
import { packageFile } from '../../spec/package-files.ts';
import { page } from './docs-pages.ts';
import { githubSlug, markdownHtml } from './markdown.ts';

/** The guides, in the order the pages list them: each is `docs/<name>.md`. */
export const guides = [
  { name: 'integrator', label: 'Integrator' },
  { name: 'vendor', label: 'Vendor' },
  { name: 'ci', label: 'CI recipes' },
  { name: 'hosting', label: 'Hosting' },
  { name: 'reference', label: 'Command reference' },
  { name: 'performance', label: 'Performance' },
] as const;

export type GuideName = (typeof guides)[number]['name'];

/** Where the guides are served. */
export const GUIDES_PATH = '/docs/guides';

/** The repository files the sandbox serves a page for, by their path from the package root. */
const servedFiles: Record<string, string> = {
  'README.md': GUIDES_PATH,
  'spec/DECISIONS.md': '/docs/decisions',
  'spec/errors.yaml': '/docs/errors',
  'spec/requirements.yaml': '/docs/requirements',
  'spec/openapi.yaml': '/openapi.yaml',
  'spec/sandbox.yaml': '/sandbox.yaml',
  ...Object.fromEntries(guides.map(({ name }) => [`docs/${name}.md`, `${GUIDES_PATH}/${name}`])),
};

/** A guide's image: a PNG under `docs/images/`, by its file name. */
const IMAGE_NAME = /^[a-z0-9-]+\.png$/;

/**
 * Where a link of the document at `from` (a path from the package root: `README.md`,
 * `docs/vendor.md`) leads on the sandbox, or null when it leads to a file the sandbox does
 * not serve. Anchors, absolute addresses and the sandbox's own paths (`/docs/errors#…`) stay.
 */
export function servedAddress(from: string, href: string): string | null {
  if (href.startsWith('#') || href.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(href)) return href;
  const [path = '', fragment] = href.split('#', 2);
  const file = posix.normalize(posix.join(posix.dirname(from), path));
  const image = /^docs\/images\/(.+)$/.exec(file)?.[1];
  const served = image !== undefined && IMAGE_NAME.test(image) ? `${GUIDES_PATH}/images/${image}` : servedFiles[file];
  if (served === undefined) return null;
  if (fragment === undefined) return served;
  // GitHub names a decision's heading `d45--the-local-admin-token-file`; the served page names it `d45`.
  const decision = file === 'spec/DECISIONS.md' ? /^(d\d+)(--|$)/.exec(fragment)?.[1] : undefined;
  return `${served}#${decision ?? fragment}`;
}

/** The Markdown source of a guide, or of the README for the front page. */
function source(name: GuideName | 'README'): { file: string; text: string } {
  const file = name === 'README' ? 'README.md' : `docs/${name}.md`;
  return { file, text: readFileSync(packageFile(file), 'utf8') };
}

/** The list of guides each guide page starts with, the current one marked. */
function guideList(current: GuideName | null) {
  return element(
    'nav',
    { class: 'guide-list', 'aria-label': 'Guides' },
    element('a', { href: GUIDES_PATH, 'aria-current': current === null ? 'page' : null }, 'Start'),
    guides.map(({ name, label }) => element('a', { href: `${GUIDES_PATH}/${name}`, 'aria-current': name === current ? 'page' : null }, label)),
  );
}

/** A guide (or, for null, the README) as a page of the docs. */
export function guidePage(name: GuideName | null): string {
  const { file, text } = source(name ?? 'README');
  const title = /^# (.+)$/m.exec(text)?.[1] ?? 'Guides';
  const html = markdownHtml(text, {
    link: (href) => servedAddress(file, href),
    image: (src) => {
      const served = servedAddress(file, src);
      return served?.startsWith(`${GUIDES_PATH}/images/`) ? served : null;
    },
    headingId: (_text, plain) => githubSlug(plain),
  });
  return page(title, GUIDES_PATH, ['/docs/assets/waybill-docs.css'], element('main', { class: 'waybill-page guide' }, guideList(name), renderedHtml(html)));
}

/** The bytes of a guide's image `name` (`console-trips.png`), or undefined when there is none. */
export function guideImage(name: string): Buffer | undefined {
  if (!IMAGE_NAME.test(name)) return undefined;
  const file = packageFile(`docs/images/${name}`);
  return existsSync(file) ? readFileSync(file) : undefined;
}

/** True when `name` is a guide's. */
export function isGuide(name: string): name is GuideName {
  return guides.some((guide) => guide.name === name);
}
