/**
 * The one way HTML and XML are written: `element(name, attributes, ...children)` escapes every
 * attribute value and text child, so report data can never become markup. Only `trusted` text
 * (the report's own CSS and script, written in this code, free of `<` and `&`) is inserted as it is.
 */

const markupBrand: unique symbol = Symbol('markup');

/** Markup produced by `element`, `fragment` or `trusted`; anything else is text and gets escaped. */
export interface Markup {
  readonly [markupBrand]: true;
  readonly text: string;
}

/** A child of an element: text (escaped), markup, nothing, or a list of those. */
export type Child = string | number | Markup | null | undefined | false | readonly Child[];

/** Attribute values: text (escaped); `true` renders `name=""`; false, null and undefined leave it out. */
export type Attributes = Record<string, string | number | boolean | null | undefined>;

const voidElements = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const namePattern = /^[A-Za-z_][-A-Za-z0-9_.:]*$/;
// Characters XML 1.0 forbids even when escaped; they become U+FFFD.
const forbidden = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

function markup(text: string): Markup {
  return { [markupBrand]: true, text };
}

function isMarkup(value: unknown): value is Markup {
  return typeof value === 'object' && value !== null && markupBrand in value;
}

/** Escapes text for element content and double-quoted attribute values alike. */
function escape(text: string): string {
  return text
    .replace(forbidden, '\uFFFD')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

function renderChildren(children: readonly Child[]): string {
  return children
    .map((child): string => {
      if (child === null || child === undefined || child === false) return '';
      if (Array.isArray(child)) return renderChildren(child);
      if (isMarkup(child)) return child.text;
      return escape(String(child));
    })
    .join('');
}

/** An element; void HTML elements (`meta`, `input`, …) are written self-closed (`<meta …/>`), valid in HTML and XML. */
export function element(name: string, attributes: Attributes = {}, ...children: Child[]): Markup {
  if (!namePattern.test(name)) throw new Error(`not an element name: ${name}`);
  let open = `<${name}`;
  for (const [attribute, value] of Object.entries(attributes)) {
    if (!namePattern.test(attribute)) throw new Error(`not an attribute name: ${attribute}`);
    if (value === false || value === null || value === undefined) continue;
    open += ` ${attribute}="${value === true ? '' : escape(String(value))}"`;
  }
  if (voidElements.has(name)) {
    if (children.length > 0) throw new Error(`<${name}> cannot have children`);
    return markup(`${open}/>`);
  }
  return markup(`${open}>${renderChildren(children)}</${name}>`);
}

/** Several children side by side, without a wrapping element. */
export function fragment(...children: Child[]): Markup {
  return markup(renderChildren(children));
}

/**
 * Text written by this code (inline CSS or script) inserted unescaped. It may hold no `<` and no
 * `&`, so it can neither close its element nor be read differently by an HTML and an XML parser.
 */
export function trusted(text: string): Markup {
  if (/[<&]/.test(text)) throw new Error('trusted text must not contain "<" or "&"');
  return markup(text);
}

/**
 * HTML written by an established renderer that escapes on its own (the docs' `marked`, with raw
 * HTML turned into text and unsafe links dropped): the one door for markup not built here.
 */
export function renderedHtml(html: string): Markup {
  return markup(html);
}

/** A whole HTML document. */
export function htmlDocument(root: Markup): string {
  return `<!doctype html>\n${root.text}\n`;
}

/** A whole XML document. */
export function xmlDocument(root: Markup): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${root.text}\n`;
}
