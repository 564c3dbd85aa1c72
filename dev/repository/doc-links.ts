/**
 * The links of the README and the guides, for doc-links.test.ts: every link and image of a
 * document (read by marked's own lexer), the heading anchors a document has on GitHub, and the
 * sandbox addresses it names (`/docs/errors#api.rate_limited`, in a link or a code span).
 */
import { Marked, type Token } from 'marked';
import { githubSlug, markdownHtml } from '../../server/workbench/markdown.ts';

/** A link or an image of a document, as written. */
export interface DocumentLink {
  kind: 'link' | 'image';
  href: string;
  text: string;
}

const lexer = new Marked({ gfm: true });

/** Every link and image of `markdown`, in order, code blocks and code spans left out. */
export function documentLinks(markdown: string): DocumentLink[] {
  const found: DocumentLink[] = [];
  lexer.walkTokens(lexer.lexer(markdown), (token: Token) => {
    if (token.type === 'link' || token.type === 'image') found.push({ kind: token.type, href: token.href, text: token.text });
  });
  return found;
}

/** The anchors GitHub gives the headings of `markdown` (`exit-codes-and-what-a-ci-step-does-with-each`, `-1` after a repeated one). */
export function headingAnchors(markdown: string): Set<string> {
  const html = markdownHtml(markdown, { headingId: (_text, plain) => githubSlug(plain) });
  return new Set([...html.matchAll(/<h[1-6] id="([^"]*)"/g)].map((match) => match[1]!));
}

/**
 * The sandbox's own addresses `markdown` names under `/docs`: links (`/docs/errors#…`), code
 * spans (`` `/docs/requirements#int.orders-feed.caught-up` ``) and full addresses on the
 * documents' `127.0.0.1:4000`. Placeholders (`<type>`, `…`) are left out.
 */
export function sandboxAddresses(markdown: string): string[] {
  const addresses = new Set<string>();
  for (const link of documentLinks(markdown)) if (link.href.startsWith('/docs')) addresses.add(link.href);
  for (const match of markdown.matchAll(/(?:`|http:\/\/127\.0\.0\.1:4000)(\/docs[^\s`'")<>,]*)/g)) {
    const address = match[1]!.replace(/[.:;]$/, '');
    if (!address.includes('…')) addresses.add(address);
  }
  return [...addresses].sort();
}
