import { describe, expect, it } from 'vitest';
import { parseXml } from '../../dev/testing/conformance/xml-tree.ts';
import { element, fragment, trusted, xmlDocument } from './markup.ts';

describe('element', () => {
  it('escapes text children and attribute values', () => {
    const markup = element('p', { title: `"quoted" & <tag> 'single'` }, '<script>alert(1)</script> & more');
    expect(markup.text).toBe('<p title="&quot;quoted&quot; &amp; &lt;tag&gt; &#39;single&#39;">&lt;script&gt;alert(1)&lt;/script&gt; &amp; more</p>');
  });

  it('nests markup children without escaping them again, and drops empty ones', () => {
    expect(element('ul', {}, [element('li', {}, 'a&b'), null, false, undefined], fragment(element('li', {}, 1))).text).toBe('<ul><li>a&amp;b</li><li>1</li></ul>');
  });

  it('writes boolean attributes and leaves out false and null ones', () => {
    expect(element('input', { type: 'checkbox', checked: true, disabled: false, value: null }).text).toBe('<input type="checkbox" checked=""/>');
  });

  it('replaces characters XML forbids, so any text yields well-formed XML', () => {
    const xml = xmlDocument(element('a', { b: 'x\u0001y' }, 'bell\u0007 ]]> \uFFFF end'));
    expect(parseXml(xml)).toMatchObject({ name: 'a', attributes: { b: 'x\uFFFDy' }, text: 'bell\uFFFD ]]> \uFFFD end' });
  });

  it('refuses names that are not names, children of void elements, and trusted text that could close its element', () => {
    expect(() => element('a b')).toThrow(/not an element name/);
    expect(() => element('a', { 'on click': 'x' })).toThrow(/not an attribute name/);
    expect(() => element('meta', {}, 'x')).toThrow(/cannot have children/);
    expect(() => trusted('a</style><script>')).toThrow(/must not contain/);
    expect(() => trusted('a && b')).toThrow(/must not contain/);
  });
});
