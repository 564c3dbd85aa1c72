/**
 * Markdown as HTML for the docs pages (`spec/DECISIONS.md`, the guides under `docs/`), through
 * `marked`, set up so that no raw HTML reaches a page (it is shown as text; comments, which
 * the guides use to mark quoted outputs for their tests, are left out) and no unsafe link does.
 * Where a link or an image leads on the served page is the caller's to say.
 */
import { Marked, type Tokens } from 'marked';

/** How one document's links, images and heading ids are served. */
export interface MarkdownOptions {
  /** Where a link as written leads on the page, or null to show its text alone; by default as written. */
  link?: (href: string) => string | null;
  /** Where an image as written is served from, or null to show its alt text; by default none is shown. */
  image?: (src: string) => string | null;
  /** A heading's id from its text as written (Markdown included); by default `headingId`. */
  headingId?: (text: string, plain: string) => string;
}

/** The anchor of a heading: `d21` for "D21 — …", else its words joined by dashes. */
export function headingId(text: string): string {
  const decision = /^D(\d+)\b/.exec(text);
  if (decision !== null) return `d${decision[1]}`;
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

/**
 * The anchor GitHub gives a heading of plain text `plain`: lower case, every character but
 * letters, digits, spaces, `-` and `_` left out, each space a `-`. A guide's links work the
 * same on GitHub and served by the sandbox.
 */
export function githubSlug(plain: string): string {
  return plain.trim().toLowerCase().replace(/[^\p{L}\p{M}\p{N} _-]/gu, '').replace(/ /g, '-');
}

/** Text with the five HTML-significant characters escaped, for what marked hands over raw. */
export function escapeText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');
}

/** Links may go to pages (http, https), mail, or inside the site; anything else (javascript:, data:) is dropped. */
function safeHref(href: string): boolean {
  // Browsers ignore blanks and control characters inside a scheme ("java\tscript:"), so the test does too.
  const compact = href.replace(/[\u0000-\u0020]/g, '');
  return /^(https?|mailto):/i.test(compact) || !/^[a-z][a-z0-9+.-]*:/i.test(compact);
}

/** `markdown` as HTML, links, images and heading ids as `options` serve them. */
export function markdownHtml(source: string, options: MarkdownOptions = {}): string {
  const idOf = options.headingId ?? ((text: string) => headingId(text));
  // Two headings of one text get -1, -2 after the first, as on GitHub.
  const taken = new Map<string, number>();
  const unique = (id: string) => {
    const count = taken.get(id) ?? 0;
    taken.set(id, count + 1);
    return count === 0 ? id : `${id}-${count}`;
  };
  const marked = new Marked({
    gfm: true,
    renderer: {
      html({ text }: Tokens.HTML | Tokens.Tag): string {
        return /^\s*<!--[\s\S]*-->\s*$/.test(text) ? '' : escapeText(text);
      },
      heading({ tokens, depth, text }: Tokens.Heading): string {
        const id = unique(idOf(text, this.parser.parseInline(tokens, this.parser.textRenderer)));
        return `<h${depth} id="${escapeText(id)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
      link({ href, title, tokens }: Tokens.Link): string {
        const inner = this.parser.parseInline(tokens);
        const served = options.link ? options.link(href) : href;
        if (served === null || !safeHref(served)) return inner;
        return `<a href="${escapeText(served)}"${title ? ` title="${escapeText(title)}"` : ''}>${inner}</a>`;
      },
      image({ href, text }: Tokens.Image): string {
        // Pictures would be fetched from wherever they point: only those the caller serves are shown.
        const served = options.image?.(href) ?? null;
        if (served === null) return escapeText(text);
        return `<img src="${escapeText(served)}" alt="${escapeText(text)}">`;
      },
    },
  });
  return marked.parse(source, { async: false });
}
