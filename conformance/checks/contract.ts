/**
 * Contract: what an independent validator, Stoplight Prism's validation proxy, says of the
 * run's exchanges (`waybill conformance --via-prism`). Prism reports each request and
 * response that breaks spec/openapi.yaml in an `sl-violations` header. A response
 * violation always counts. A request violation counts only when the target accepted the
 * request (2xx): the suite sends invalid requests on purpose, and refusing them is right.
 * Registered only when the run goes through Prism (an absent header then means "none").
 */
import { describeExchange, finding, show } from '../engine/findings.ts';
import type { Check, Finding } from '../engine/types/check.ts';
import type { ExchangeRecord } from '../engine/types/exchange.ts';

/** One entry of Prism's `sl-violations` header. */
interface Violation {
  location?: string[];
  severity?: string;
  code?: string | number;
  message?: string;
}

/** The violations Prism put on an exchange; a header that is not a JSON list is itself reported. */
function violationsOf(exchange: ExchangeRecord): Violation[] | Finding {
  const header = exchange.response?.headers['sl-violations'];
  if (header === undefined) return [];
  try {
    const parsed: unknown = JSON.parse(header);
    if (Array.isArray(parsed)) return parsed as Violation[];
  } catch {
    // Reported below.
  }
  return finding(`${describeExchange(exchange)}: unreadable sl-violations header`, 'a JSON array', show(header, 200), exchange);
}

/** The finding for one violation, or null when it is a deliberate invalid request the target refused. */
function findingOf(exchange: ExchangeRecord, violation: Violation): Finding | null {
  const [side, ...where] = violation.location ?? [];
  const status = exchange.response?.status ?? 0;
  if (side !== 'response' && !(status >= 200 && status < 300)) return null;
  if (violation.severity !== undefined && violation.severity !== 'Error') return null;
  const place = where.length > 0 ? where.join('.') : side ?? 'exchange';
  const subject = side === 'response' ? 'the answer breaks spec/openapi.yaml' : 'the target accepted a request spec/openapi.yaml refuses';
  return finding(
    `${describeExchange(exchange)}: ${subject} (Prism: ${place})`,
    side === 'response' ? `a ${status} answer as spec/openapi.yaml declares it` : 'a 4xx answer to an invalid request',
    `${violation.code ?? ''} ${violation.message ?? ''}`.trim(),
    exchange,
  );
}

export const prismViolations: Check = {
  id: 'contract.prism',
  family: 'contract',
  title: "Prism's validation proxy finds no violation in any exchange of the run",
  verifies: ['int.service.json'],
  fix: 'answer every exchange as spec/openapi.yaml declares it, each status with its declared headers and body, and refuse with a 4xx every request the document refuses (int.service.json)',
  requires: [],
  after: 'all',
  async run(ctx) {
    const exchanges = ctx.exchanges().filter((exchange) => exchange.channel === 'api' && exchange.response !== null);
    if (exchanges.length === 0) ctx.skip('no answer went through the Prism proxy in this run');
    const findings: Finding[] = [];
    for (const exchange of exchanges) {
      const violations = violationsOf(exchange);
      if (!Array.isArray(violations)) {
        findings.push(violations);
        continue;
      }
      for (const violation of violations) {
        const found = findingOf(exchange, violation);
        if (found !== null) findings.push(found);
      }
    }
    return findings;
  },
};

/** The checks added by `--via-prism`. */
export const contractChecks: Check[] = [prismViolations];
