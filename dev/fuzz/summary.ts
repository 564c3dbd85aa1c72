/** The printed summary of a fuzz campaign (`npm run fuzz`, and the message of the test's run). */
import type { FuzzCase } from '../../conformance/fuzz/cases.ts';
import type { CampaignResult } from './campaign.ts';

/** The most a probe may wait beyond its usual time while bad requests are in flight. */
export const PROBE_BOUND_MS = 100;

/** `{ a: 3, b: 1 }` as `a 3, b 1`, largest first. */
function counts(record: Record<string, number>): string {
  return Object.entries(record)
    .sort(([, a], [, b]) => b - a)
    .map(([key, value]) => `${key} ${value}`)
    .join(', ');
}

/** A case as one printable line: its bytes or body cut to a few hundred characters (a deep or wide body is up to 1 MiB). */
export function printableCase(item: FuzzCase): string {
  const cut = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}… (${text.length.toLocaleString('en-US')} characters)` : text);
  return JSON.stringify(item.transport === 'raw' ? { ...item, bytes: cut(item.bytes) } : { ...item, ...(item.body === undefined ? {} : { body: cut(item.body) }) });
}

/** The figures a run fails on, as one line. */
export function figuresLine(result: CampaignResult): string {
  const { figures } = result;
  return `${figures.requests.toLocaleString('en-US')} requests, ${figures.answers.toLocaleString('en-US')} answers: ${figures.serverErrors} 5xx, ${figures.nonProblems} non-problem errors, ${figures.undeclared} undeclared statuses, ${figures.drops} drops; slowest case ${figures.slowest.label || 'none'} ${figures.slowest.ms.toFixed(0)} ms`;
}

/** The summary of a campaign, as printed. */
export function summary(result: CampaignResult): string {
  const lines = [
    `seed ${result.seed}: ${Object.values(result.byTransport).reduce((a, b) => a + b, 0)} cases in ${(result.durationMs / 1000).toFixed(1)} s${result.concurrency > 1 ? `, ${result.concurrency} at a time` : ''}`,
    `  ${figuresLine(result)}`,
    `  by transport: ${counts(result.byTransport)}${result.unsendable > 0 ? ` (${result.unsendable} fetch cases fetch refused to send)` : ''}`,
    `  by kind: ${counts(result.byLabel)}`,
    `  answers by status: ${counts(result.byStatus)}`,
    `  probe: ${result.probe.count} whoami requests while a case was in flight, usual time ${result.probe.baselineMs.toFixed(1)} ms, worst delay beyond it ${result.probe.maxDelayMs.toFixed(1)} ms (bound ${PROBE_BOUND_MS} ms, during ${result.probe.worstDuring || 'no case'})`,
  ];
  for (const failure of result.probe.failures) lines.push(`  probe failure: ${failure}`);
  for (const failing of result.failures) lines.push(`  case ${failing.index + 1} failed: ${failing.error}\n    ${printableCase(failing.item)}`);
  for (const line of result.serverErrors) lines.push(`  server error: ${line.split('\n')[0]}`);
  return lines.join('\n');
}
