/**
 * The requirement trace as HTML, one table for /docs/requirements and for `report.html`: every
 * requirement with its quote and level, the checks and client-check scenarios that verify it,
 * and the sandbox code that implements it (or who does instead). Built through the one escaping
 * element helper; its stylesheet holds no `<` or `&`, so the report can inline it as trusted.
 */
import type { Implementer } from '../../spec/requirement-markers.ts';
import { type Child, element, fragment, type Markup } from './markup.ts';
import type { TracedRequirement } from './requirement-trace.ts';

/** Where the trace's links go, which differs between the docs and a self-contained report. */
export interface TraceLinks {
  /** The fragment id of a requirement's row: `''` on /docs/requirements (`#D21`), a prefix in the report. */
  rowPrefix: string;
  /** Heading level of the section: 1 on its own page, 2 inside the report. */
  heading: 'h1' | 'h2';
  /** A link for a check or scenario id (its article in the report when it ran), or null for none. */
  checkHref?: (id: string) => string | null;
  /** A link for a decision id (the decisions page of the docs), or null for none. */
  decisionHref?: (id: string) => string | null;
}

/** What the code column says of a rule the sandbox does not implement. */
const elsewhere: Record<Exclude<Implementer, 'sandbox'>, string> = {
  tools: "waybill's own tools, not the sandbox",
  client: 'a rule for the integrating client; no server code embodies it',
  contract: 'the contract documents themselves (spec/)',
  none: 'nothing here: it governs endpoints the seeds do not show',
};

/** Styles of the trace, for both pages (the report's colour variables when present, else fixed ones). */
export const traceCss = `
table.trace { width: 100%; border-collapse: collapse; table-layout: fixed; margin-top: .5rem; font-size: .92rem; }
table.trace th, table.trace td { border-bottom: 1px solid var(--line, #d0d7de); padding: .35rem .5rem; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
table.trace thead th { position: sticky; top: 0; background: Canvas; }
table.trace col.t-id { width: 18%; } table.trace col.t-quote { width: 37%; } table.trace col.t-verified { width: 22%; } table.trace col.t-code { width: 23%; }
table.trace .trace-id { font-family: ui-monospace, Menlo, Consolas, monospace; font-weight: 600; }
table.trace .trace-level { display: inline-block; font-size: .75rem; border: 1px solid currentColor; border-radius: 3px; padding: 0 .25rem; margin: .15rem 0; }
table.trace .trace-source, table.trace .trace-note, table.trace .trace-elsewhere { color: var(--skip, #59636e); font-size: .88em; font-weight: 400; margin: .2rem 0 0; }
table.trace ul { list-style: none; margin: 0; padding: 0; } table.trace li { margin: 0 0 .1rem; }
table.trace .trace-kind { color: var(--skip, #59636e); font-size: .85em; display: block; margin-top: .2rem; }
table.trace code { font-size: .88em; } table.trace .trace-lines { color: var(--skip, #59636e); font-size: .85em; white-space: nowrap; }
table.trace tbody tr { scroll-margin-top: 3rem; }
.trace-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
@media (max-width: 760px) {
  table.trace, table.trace tbody, table.trace tr, table.trace th, table.trace td { display: block; width: auto; }
  table.trace thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.trace tr { border-bottom: 1px solid var(--line, #d0d7de); padding: .4rem 0; }
  table.trace th, table.trace td { border: 0; padding: .1rem 0; }
}
`;

/** `int.<wbr>orders-feed.<wbr>caught-up`: an id that may wrap after each dot, never inside a name. */
export function wrappingId(id: string): Markup {
  return fragment(id.split('.').map((part, index) => (index === 0 ? part : fragment('.', element('wbr'), part))));
}

/** A list of ids under a small heading, each a link when `href` gives one; nothing when there are none. */
function idList(kind: string, ids: readonly string[], href: (id: string) => string | null = () => null): Child {
  if (ids.length === 0) return null;
  return fragment(
    element('span', { class: 'trace-kind' }, `${kind} (${ids.length})`),
    element(
      'ul',
      {},
      ids.map((id) => {
        const target = href(id);
        const code = element('code', {}, wrappingId(id));
        return element('li', {}, target === null ? code : element('a', { href: target }, code));
      }),
    ),
  );
}

/** The first cell: the id (a link to its own row), the level, and where the statement stands. */
function idCell(entry: TracedRequirement, links: TraceLinks): Markup {
  const decision = entry.level === 'DECISION' ? (links.decisionHref?.(entry.id) ?? null) : null;
  return element(
    'th',
    { scope: 'row' },
    element('a', { class: 'trace-id', href: `#${links.rowPrefix}${entry.id}` }, wrappingId(entry.id)),
    element('br'),
    element('span', { class: 'trace-level' }, entry.level),
    element('p', { class: 'trace-source' }, decision === null ? entry.source : element('a', { href: decision }, entry.source)),
  );
}

/** What verifies a requirement: checks, then scenarios; or why nothing does. */
function verifiedCell(entry: TracedRequirement, links: TraceLinks): Markup {
  const none = entry.checks.length === 0 && entry.scenarios.length === 0;
  return element(
    'td',
    {},
    idList('checks', entry.checks, links.checkHref),
    idList('client-check scenarios', entry.scenarios, links.checkHref),
    none ? element('span', { class: 'trace-elsewhere' }, entry.testable ? 'no check yet' : 'not testable over HTTP') : null,
  );
}

/** `server/<wbr>integration/<wbr>feeds.ts`: a path that may wrap after each slash. */
function wrappingPath(path: string): Markup {
  return fragment(path.split('/').map((part, index) => (index === 0 ? part : fragment('/', element('wbr'), part))));
}

/** Where a requirement is implemented: the sandbox's marked files and lines, or who does instead. */
function codeCell(entry: TracedRequirement): Markup {
  if (entry.implementedBy !== 'sandbox') return element('td', {}, element('span', { class: 'trace-elsewhere' }, elsewhere[entry.implementedBy]));
  return element(
    'td',
    {},
    element('span', { class: 'trace-kind' }, `sandbox (${entry.code.length} ${entry.code.length === 1 ? 'file' : 'files'})`),
    element('ul', {}, entry.code.map(({ file, lines }) => element('li', {}, element('code', {}, wrappingPath(file)), element('span', { class: 'trace-lines' }, ` line ${lines.join(', ')}`)))),
  );
}

/** One requirement's row, anchored by its id. */
function traceRow(entry: TracedRequirement, links: TraceLinks): Markup {
  return element(
    'tr',
    { id: `${links.rowPrefix}${entry.id}`, 'data-trace': entry.implementedBy },
    idCell(entry, links),
    element(
      'td',
      {},
      element('q', {}, entry.quote),
      entry.via === 'control-plane' ? element('p', { class: 'trace-note' }, 'Reached only through a sandbox control plane.') : null,
      entry.reason ? element('p', { class: 'trace-note' }, element('b', {}, 'Not testable: '), entry.reason) : null,
    ),
    verifiedCell(entry, links),
    codeCell(entry),
  );
}

/** `165 implemented by the sandbox, 9 by waybill's tools, …`: the counts a reader checks the table against. */
function summary(entries: readonly TracedRequirement[]): Markup {
  const by = (implementer: Implementer) => entries.filter((entry) => entry.implementedBy === implementer).length;
  const sandbox = entries.filter((entry) => entry.implementedBy === 'sandbox');
  const files = new Set(sandbox.flatMap((entry) => entry.code.map((place) => place.file))).size;
  const markers = sandbox.reduce((sum, entry) => sum + entry.code.reduce((lines, place) => lines + place.lines.length, 0), 0);
  return element(
    'p',
    {},
    `${entries.length} requirements: ${sandbox.length} implemented by the reference sandbox (${markers} marked places in ${files} files), `,
    `${by('tools')} by waybill's own tools, ${by('client')} rules for clients, ${by('contract')} properties of the contract, ${by('none')} implemented by nothing here. `,
    `${entries.filter((entry) => entry.checks.length > 0).length} are verified by the suite's checks, ${entries.filter((entry) => entry.scenarios.length > 0).length} by client-check scenarios. `,
    'Each marked place carries the comment ',
    element('code', {}, '// requirement: <id>'),
    ', so ',
    element('code', {}, 'grep -rn "requirement: <id>" server'),
    ' finds it in a checkout.',
  );
}

/** The whole trace: a section with its heading, the counts and the table. */
export function requirementTraceView(entries: readonly TracedRequirement[], links: TraceLinks): Markup {
  const columns = [
    ['id', 'requirement'],
    ['quote', 'statement'],
    ['verified', 'verified by'],
    ['code', 'implemented in'],
  ] as const;
  return element(
    'section',
    { id: 'requirement-trace', 'aria-labelledby': 'requirement-trace-heading' },
    element(links.heading, { id: 'requirement-trace-heading' }, `Requirement trace (${entries.length})`),
    summary(entries),
    element(
      'table',
      { class: 'trace' },
      element('caption', { class: 'trace-hidden' }, 'Each requirement, what verifies it and what implements it'),
      element('colgroup', {}, columns.map(([name]) => element('col', { class: `t-${name}` }))),
      element('thead', {}, element('tr', {}, columns.map(([, heading]) => element('th', { scope: 'col' }, heading)))),
      element('tbody', {}, entries.map((entry) => traceRow(entry, links))),
    ),
  );
}
