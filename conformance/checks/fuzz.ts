/**
 * Fuzz: generated requests to every operation of the integration API (and of the control
 * plane when the profile has it), with malformed query parameters, headers, bodies and path
 * parameters over fetch (bodies nested up to 100,000 levels deep or widened to 200,000 items
 * among them, within 1 MiB) and malformed bytes over raw sockets (conformance/fuzz), seeded by
 * the run's seed. No answer may be a 5xx (malformed input is a validation error, never an
 * unexpected failure), and every error is a problem body with a catalog type of its status
 * (or about:blank). Off by default: `waybill conformance --fuzz N` adds it, after every other
 * check, since its writes with the full key could disturb them.
 */
import fc from 'fast-check';
import { ExchangeError } from '../transport/exchange.ts';
import { describeExchange, finding } from '../engine/findings.ts';
import { type Credential, fuzzCase, type FuzzCase, GARBAGE_KEY, type HttpCase } from '../fuzz/cases.ts';
import { answerViolations, type OracleOptions, rawViolations } from '../fuzz/oracle.ts';
import { fillRaw } from '../fuzz/raw-cases.ts';
import type { Check, CheckContext, Finding } from '../engine/types/check.ts';
import type { ExchangeRecord, HttpRequest } from '../engine/types/exchange.ts';

/** The seeds' problem rules; X-Request-Id is waybill's decision (D23), held elsewhere. */
const ORACLE: OracleOptions = { requestId: false };
/** Findings kept in full; the rest are counted. */
const MAX_FINDINGS = 20;

/** The request of a fetch case, with the profile's key (or another) named as `ctx.http` expects. */
function httpRequest(ctx: CheckContext, item: HttpCase): { request: HttpRequest; client: 'http' | 'sandbox' } {
  const search = new URLSearchParams(item.query).toString();
  const { 'Content-Type': contentType, ...headers } = item.headers;
  const common = { method: item.method, headers, contentType: contentType ?? null, verbatim: true, ...(item.body === undefined ? {} : { rawBody: item.body }) };
  const path = `${item.path}${search ? `?${search}` : ''}`;
  if (item.document === 'sandbox') {
    if (item.credential === 'full') return { request: { ...common, path }, client: 'sandbox' };
    const base = ctx.profile.sandbox!.url.replace(/\/+$/, '');
    return { request: { ...common, path: `${base}${path}`, key: item.credential === 'garbage' ? GARBAGE_KEY : null, auth: { header: 'Authorization', prefix: 'Bearer ' } }, client: 'http' };
  }
  const key = (credential: Credential): string | null => {
    if (credential === 'none') return null;
    if (credential === 'garbage') return GARBAGE_KEY;
    return credential === 'full' || ctx.profile.keys[credential] !== undefined ? credential : 'full';
  };
  return { request: { ...common, path, key: key(item.credential) }, client: 'http' };
}

/** True when fetch would refuse the case's headers before sending anything. */
function unsendable(item: HttpCase): boolean {
  try {
    new Headers(item.headers);
    return false;
  } catch {
    return true;
  }
}

/** Sends one case and returns what broke, with the exchange that shows it; null when it held (or could not be sent). */
async function judge(ctx: CheckContext, item: FuzzCase): Promise<{ violations: string[]; exchange: ExchangeRecord } | null> {
  try {
    if (item.transport === 'raw') {
      const target = new URL(ctx.target);
      const bytes = fillRaw(item.bytes, { base: target.pathname.replace(/\/+$/, ''), host: target.host, auth: ctx.authHeader('full') });
      const response = await ctx.raw(Buffer.from(bytes, 'latin1'), { halfClose: item.halfClose });
      const violations = rawViolations(item, { answers: [response], end: 'closed' }, ORACLE);
      return violations.length > 0 ? { violations, exchange: response.exchange } : null;
    }
    if (unsendable(item)) return null;
    const { request, client } = httpRequest(ctx, item);
    const response = await (client === 'sandbox' ? ctx.sandbox! : ctx.http).request(request);
    const violations = answerViolations({ status: response.status, headers: response.headers, text: response.text }, ORACLE);
    return violations.length > 0 ? { violations, exchange: response.exchange } : null;
  } catch (error) {
    if (!(error instanceof ExchangeError)) throw error;
    if (item.transport === 'raw' && item.unanswerable) return null;
    return { violations: [`no answer: ${error.message}`], exchange: error.exchange };
  }
}

/** The fuzz check of `cases` generated requests. */
export function fuzzCheck(cases: number): Check {
  return {
    id: 'fuzz.requests',
    family: 'fuzz',
    title: `${cases} generated malformed requests (fetch and raw sockets) are never answered 5xx, and every error is a problem body with a catalog type of its status`,
    verifies: ['int.errors.problem-json', 'int.errors.catalog-type', 'int.errors.status-by-kind'],
    fix: 'refuse a malformed request with a 4xx problem+json whose type is the catalog code of its status, and never let one reach a 5xx (int.errors.problem-json, int.errors.catalog-type, int.errors.status-by-kind)',
    requires: [],
    after: 'all',
    async run(ctx) {
      const items = fc.sample(fuzzCase({ sandbox: ctx.sandbox !== null, raw: true }), { seed: ctx.seed, numRuns: cases });
      const findings: Finding[] = [];
      let failing = 0;
      for (const [index, item] of items.entries()) {
        const broken = await judge(ctx, item);
        if (broken === null) continue;
        failing += 1;
        if (findings.length >= MAX_FINDINGS) continue;
        const what = item.transport === 'raw' ? `raw ${item.kind}` : `${item.document === 'sandbox' ? 'control plane ' : ''}${item.operationId}`;
        findings.push(
          finding(
            `fuzz case ${index + 1} of ${cases} (${what}): ${describeExchange(broken.exchange)} — the whole campaign replays with --only fuzz --fuzz ${cases} --seed ${ctx.seed}`,
            'no 5xx; every error application/problem+json whose type is a catalog code of its status (or about:blank)',
            broken.violations.join('; '),
            broken.exchange,
          ),
        );
      }
      if (failing > findings.length) findings.push(finding(`${failing - findings.length} more fuzz cases failed`, 'none', `${failing} of ${cases} cases failed; the first ${MAX_FINDINGS} are listed`));
      return findings;
    },
  };
}
