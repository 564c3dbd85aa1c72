/** The facts at the head of report.html: what was graded, against what, with which options. */
import { counted } from '../../cli/counted.ts';
import type { RunReport } from '../engine/types/report.ts';
import { element, fragment, type Markup } from './markup.ts';

/** The options of a conformance run: level, strictness, concurrency, timeout, selection. */
function conformanceOptions({ options }: RunReport): string {
  return `level ${options.level}${options.strict ? ', strict' : ''}, concurrency ${options.concurrency}, timeout ${options.timeoutMs} ms${options.only.length ? `, only ${options.only.join(',')}` : ''}${options.skip.length ? `, skip ${options.skip.join(',')}` : ''}`;
}

/**
 * The header's facts. A client-check's name the client it graded and leave out what only a
 * conformance run has: no level, strictness or profile (its keys and pools are the scenarios' own),
 * nor the grader's request timeout, which a reader would take for the client's time limit.
 */
export function metadataView(report: RunReport): Markup {
  const client = report.suite.name === 'waybill-client-check';
  const rows: [string, string][] = [
    ...(report.client === undefined ? [] : [['Client', report.client.command] as [string, string]]),
    ['Target', report.target],
    ['Suite', `${report.suite.name} ${report.suite.version}`],
    ['Spec hash', report.specHash],
    ['Seed', String(report.seed)],
    ['Started', report.startedAt],
    ['Finished', report.finishedAt],
    [client ? 'Scenarios took' : 'Checks took', `${report.durationMs} ms, ${counted(report.exchangeCount, 'exchange')}`],
    client
      ? ['Options', `concurrency ${report.options.concurrency}${report.options.only.length ? `, scenarios ${report.options.only.join(',')}` : ', every scenario'}`]
      : ['Options', conformanceOptions(report)],
    ...(client ? [] : [['Profile', `keys ${report.profile.keys.join(', ')}; pools ${Object.entries(report.profile.pools).map(([pool, size]) => `${pool} ${size}`).join(', ') || 'none'}; sandbox ${report.profile.sandbox ? 'yes' : 'no'}`] as [string, string]]),
  ];
  return element('dl', { class: 'meta' }, rows.map(([name, value]) => fragment(element('dt', {}, name), element('dd', {}, value))));
}
