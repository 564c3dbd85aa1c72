/**
 * The part of `/docs` that shows, for each operation of the integration API, the `Prefer` line
 * that forces each problem it lists in `x-error-codes` (D95), with the status and title it
 * answers: read from `spec/openapi.yaml` and `spec/errors.yaml`, written through the one
 * escaping element helper.
 */
import { type Child, element } from '../../conformance/reporters/markup.ts';
import { catalogEntry, type OperationSpec, operations } from '../../spec/load.ts';
import { preferProblemLine } from '../faults/prefer.ts';

/** Where D95 is on the decisions page. */
const DECISION_HREF = '/docs/decisions#d95';

/** One operation's codes: a heading anchored `#problems-<operationId>`, then a row per code. */
function operationProblems(operation: OperationSpec): Child {
  return element(
    'section',
    { id: `problems-${operation.operationId}` },
    element('h3', {}, element('code', {}, operation.operationId), ` ${operation.method} ${operation.path}`),
    element(
      'table',
      { class: 'catalog' },
      element('thead', {}, element('tr', {}, ['header that forces it', 'status', 'title'].map((name) => element('th', { scope: 'col' }, name)))),
      element(
        'tbody',
        {},
        operation.errorCodes.map((code) => {
          const entry = catalogEntry(code);
          return element(
            'tr',
            {},
            element('td', {}, element('code', {}, preferProblemLine(code))),
            element('td', { class: 'status' }, entry.status),
            element('td', {}, element('a', { href: `/docs/errors#${code}` }, entry.title)),
          );
        }),
      ),
    ),
  );
}

// requirement: D95
/** The section of `/docs` listing every operation's problems on demand, folded under a one-line summary. */
export function problemsOnDemand(): Child {
  return element(
    'details',
    { class: 'waybill-page', id: 'problems-on-demand' },
    element('summary', {}, 'Any problem an operation lists, on demand: ', element('code', {}, 'Prefer: problem=…')),
    element(
      'p',
      {},
      'A call to this sandbox that sends one of these headers is answered with that problem exactly as the sandbox answers it for real — status, title, detail, field errors, ',
      element('code', {}, 'Retry-After'),
      ' for a 429 — before the request runs, so nothing is written. A fault rule does the same for the next calls (',
      element('code', {}, '"fault":"problem"'),
      '). A code the operation does not list is 400 naming ',
      element('code', {}, 'Prefer'),
      ', with the codes it can answer (',
      element('a', { href: DECISION_HREF }, 'D95'),
      ').',
    ),
    [...operations.values()].map(operationProblems),
  );
}
