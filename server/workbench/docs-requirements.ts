/**
 * `/docs/requirements`: the requirement trace (every entry of `spec/requirements.yaml`, the
 * checks and client-check scenarios that verify it, the sandbox code that implements it) as
 * a page of the API reference, the same table `report.html` carries.
 */
import { requirementTraceView } from '../../conformance/reporters/html-trace.ts';
import type { TracedRequirement } from '../../conformance/reporters/requirement-trace.ts';
import { element } from '../../conformance/reporters/markup.ts';
import { page } from './docs-pages.ts';

/** The page of `entries`; decisions link to their section of /docs/decisions. */
export function requirementsPage(entries: readonly TracedRequirement[]): string {
  return page(
    'Requirements',
    '/docs/requirements',
    ['/docs/assets/waybill-docs.css'],
    element(
      'main',
      { class: 'waybill-page waybill-wide' },
      requirementTraceView(entries, { rowPrefix: '', heading: 'h1', decisionHref: (id) => `/docs/decisions#${id.toLowerCase()}` }),
    ),
  );
}
