/**
 * Test support: a strict little XML reader. It throws on anything that is not well-formed
 * (unbalanced tags, stray `<` or `&`, unquoted or repeated attributes, forbidden characters,
 * more than one root) and returns the element tree for structural assertions.
 */

/** An element of the tree. */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Resolves entity references, throwing on a bare `&` or an unknown entity. */
function decode(text: string): string {
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(text)) throw new Error(`forbidden character in ${JSON.stringify(text)}`);
  return text.replace(/&([^;\s]*);?/g, (match, name: string) => {
    if (!match.endsWith(';')) throw new Error(`bare & in ${JSON.stringify(text)}`);
    if (name in entities) return entities[name] as string;
    if (/^#\d+$/.test(name)) return String.fromCodePoint(Number(name.slice(1)));
    if (/^#x[0-9a-fA-F]+$/.test(name)) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    throw new Error(`unknown entity &${name};`);
  });
}

/** Parses `xml` (an optional declaration, then one root element) or throws saying why it is not well-formed. */
export function parseXml(xml: string): XmlElement {
  const body = xml.replace(/^<\?xml version="1\.0" encoding="UTF-8"\?>\s*/, '');
  const token = /<!--[\s\S]*?-->|<(\/?)([A-Za-z_][-\w.:]*)((?:\s+[A-Za-z_][-\w.:]*\s*=\s*"[^"<]*")*)\s*(\/?)>|([^<]+)|([\s\S])/g;
  const root: XmlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const stack: XmlElement[] = [root];
  for (const match of body.matchAll(token)) {
    const [whole, closing, name, attributeText, selfClosing, text, stray] = match;
    const current = stack.at(-1) as XmlElement;
    if (stray !== undefined) throw new Error(`stray ${JSON.stringify(stray)} at ${match.index}: ${body.slice(match.index, match.index + 40)}`);
    if (whole.startsWith('<!--')) continue;
    if (text !== undefined) {
      if (stack.length === 1 && text.trim() !== '') throw new Error('text outside the root element');
      current.text += decode(text);
      continue;
    }
    if (closing) {
      if (current.name !== name) throw new Error(`</${name}> closes <${current.name}>`);
      stack.pop();
      continue;
    }
    const attributes: Record<string, string> = {};
    for (const [, attribute, value] of (attributeText ?? '').matchAll(/([A-Za-z_][-\w.:]*)\s*=\s*"([^"]*)"/g)) {
      if (attribute === undefined || attribute in attributes) throw new Error(`attribute ${attribute} repeated on <${name}>`);
      attributes[attribute] = decode(value ?? '');
    }
    const element: XmlElement = { name: name as string, attributes, children: [], text: '' };
    if (stack.length === 1 && root.children.length > 0) throw new Error('more than one root element');
    current.children.push(element);
    if (!selfClosing) stack.push(element);
  }
  if (stack.length !== 1) throw new Error(`<${stack.at(-1)?.name}> is never closed`);
  const [document] = root.children;
  if (document === undefined) throw new Error('no root element');
  return document;
}

/** Every element named `name` below `element`, depth first. */
export function findAll(element: XmlElement, name: string): XmlElement[] {
  return element.children.flatMap((child) => [...(child.name === name ? [child] : []), ...findAll(child, name)]);
}
