/**
 * Acceptance: the generated values of every parameter, header and body member of the six
 * operations (fuzz/acceptance-cases.ts) sent one at a time in an otherwise valid request. A
 * value the contract refuses must not be answered 2xx; a value it allows must not be refused
 * as invalid (400, 413, 415, 422). The cases are split by the level their requirement gives
 * them, one check each, so that a MUST failure always points at a sentence of the seeds and a
 * decision of waybill's is graded only as one. An answer that grades nothing (429, a 5xx, no
 * answer) is tried once more; a check that still could not grade a case says so and ends as
 * `skip` unless another case failed.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { citationOf, operations, requirements } from '../../../spec/load.ts';
import { describeExchange, finding, show } from '../../engine/findings.ts';
import type { Check, CheckContext, Finding } from '../../engine/types/check.ts';
import type { HttpRequest, HttpResponse } from '../../engine/types/exchange.ts';
import type { PoolName } from '../../engine/types/profile.ts';
import { ExchangeError } from '../../transport/exchange.ts';
import { type AcceptanceCase, acceptanceCases, bodyBaseline, type Expectation } from '../../fuzz/acceptance-cases.ts';
import { edited } from '../feeds/cursor.ts';
import { type OrderState, poolStates, qualifyingOrders } from '../support/pool-state.ts';

/** The pool whose order each write's cases are sent on, and what its orders must be. */
const WRITE_POOLS: Record<string, { pool: PoolName; wanted: Parameters<typeof qualifyingOrders>[2] }> = {
  attachPayment: { pool: 'payable', wanted: poolStates.payable },
  cancelOrder: { pool: 'cancellable', wanted: poolStates.cancellable },
  archiveOrder: { pool: 'archivable', wanted: poolStates.archivable },
};
/** Statuses that say the target refused the input as invalid; any other 4xx (404, 409) is about state. */
const REFUSING = new Set([400, 413, 415, 422]);
/** Findings listed in full; the rest are counted. */
const MAX_FINDINGS = 20;
/** Requests in flight at once for the reads (a write's cases go one at a time, in order). */
const READ_CONCURRENCY = 4;

/** The level each register id gives, for grouping the cases. */
const levelOf = (id: string) => requirements.get(id)?.level ?? 'DECISION';

/** One check's share of the cases. */
interface Group {
  id: string;
  expect: Expectation;
  level: 'MUST' | 'SHOULD' | 'DECISION';
  title: string;
  /** What a correct target does with the group's values: its fix sentence, before the ids it cites. */
  fix: string;
}

const GROUPS: Group[] = [
  {
    id: 'acceptance.refused',
    expect: 'refused',
    level: 'MUST',
    title: 'values the seeds refuse (near misses of the order statuses and currency, non-positive amounts, wrongly typed or missing body members, a malformed cursor, no credentials) are never answered 2xx',
    fix: 'validate every parameter, header and body member against its rule, and refuse a value the seeds refuse with a 4xx, never a 2xx',
  },
  { id: 'acceptance.refused.should', expect: 'refused', level: 'SHOULD', title: 'a paymentId that is not a uuid is never answered 2xx', fix: 'refuse a paymentId that is not a uuid with a 4xx, never a 2xx' },
  {
    id: 'acceptance.refused.decided',
    expect: 'refused',
    level: 'DECISION',
    title: "values waybill's decisions refuse (limit syntax, a since that is no date-time, trip status near misses, an edited cursor, parameters sent twice or unknown to the feeds, invalid Idempotency-Keys, a reason too long) are never answered 2xx",
    fix: "refuse a value waybill's decisions refuse with a 4xx, never a 2xx",
  },
  {
    id: 'acceptance.accepted',
    expect: 'accepted',
    level: 'MUST',
    title: 'values the seeds allow (every order status, limits 1 to 100 and above, date-times, an issued cursor, positive amounts, a currency code, a uuid) are never refused as invalid',
    fix: 'accept every value the seeds allow, never refusing it as invalid with a 400, 413, 415 or 422',
  },
  {
    id: 'acceptance.accepted.decided',
    expect: 'accepted',
    level: 'DECISION',
    title: "values waybill's decisions allow (every trip status, unknown body members, the longest reason and Idempotency-Key, any X-Request-Id) are never refused as invalid",
    fix: "accept every value waybill's decisions allow, never refusing it as invalid with a 400, 413, 415 or 422",
  },
];

/** The fix of a case answered against its rule: what the target does with that one value, citing the case's requirement. */
function caseFix(item: AcceptanceCase): string {
  const value = `${item.field} sent as ${item.kind}`;
  return item.expect === 'refused' ? `refuse ${value} with a 4xx, as its rule asks, never a 2xx (${item.requirement})` : `take ${value}, which its rule allows, instead of refusing it as invalid (${item.requirement})`;
}

/** The cases of `group` drawn with `seed` (and `extra` drawn near misses, `--fuzz`), a write's body cases before its header cases (a write's state changes once it runs). */
function casesOf(group: Group, seed: number, extra = 0): AcceptanceCase[] {
  const rank = (item: AcceptanceCase) => (item.change.in === 'body' ? 0 : 1);
  return acceptanceCases(seed, extra)
    .filter((item) => item.expect === group.expect && levelOf(item.requirement) === group.level)
    .map((item, index) => ({ item, index }))
    .sort((a, b) => (a.item.operationId === b.item.operationId ? rank(a.item) - rank(b.item) : 0) || a.index - b.index)
    .map(({ item }) => item);
}

/** The orders each write of `cases` is sent on, one of its pool each, read from the feed. */
async function writeOrders(ctx: CheckContext, cases: readonly AcceptanceCase[]): Promise<Map<string, OrderState>> {
  const orders = new Map<string, OrderState>();
  for (const operationId of new Set(cases.map((item) => item.operationId))) {
    const write = WRITE_POOLS[operationId];
    if (write !== undefined) orders.set(operationId, (await qualifyingOrders(ctx, write.pool, write.wanted))[0]!);
  }
  return orders;
}

/** A cursor the target issued on `path` (its first page of one item), or null when the feed has a single page. */
function issuedCursor(ctx: CheckContext, path: string): Promise<string | null> {
  return ctx.shared(`acceptance:cursor:${path}`, async () => {
    const page = await ctx.http.request({ method: 'GET', path, query: { limit: 1 } });
    const cursor = (page.json as { nextCursor?: unknown } | undefined)?.nextCursor;
    return typeof cursor === 'string' && cursor !== '' ? cursor : null;
  });
}

/** The request of `item`: its operation's valid request, changed as the case says; null when it needs a cursor the feed does not give. */
async function requestOf(ctx: CheckContext, item: AcceptanceCase, orders: ReadonlyMap<string, OrderState>): Promise<HttpRequest | null> {
  const operation = operations.get(item.operationId)!;
  const order = orders.get(item.operationId);
  const path = operation.path.replace('{externalId}', encodeURIComponent(order?.externalId ?? 'waybill-acceptance'));
  const { change } = item;
  const feed = operation.parameters.some((parameter) => parameter.name === 'limit');
  const query: NonNullable<HttpRequest['query']> = feed ? { limit: 1 } : {};
  const headers: Record<string, string> = {};
  if (change.in === 'query') query[change.name] = change.values;
  if (change.in === 'header') headers[change.name] = change.value;
  if (change.in === 'cursor') {
    const cursor = await issuedCursor(ctx, operation.path);
    if (cursor === null) return null;
    query['cursor'] = change.issued === 'as issued' ? cursor : edited(cursor);
  }
  const request: HttpRequest = { method: operation.method, path, query, headers, ...(change.in === 'credentials' ? { key: null } : {}) };
  const baseline = bodyBaseline(item.operationId, { paymentId: randomUUID() });
  if (baseline === null) return request;
  // The body is written as text, so that a member can be sent as JSON no parser would make (1e999) or left out.
  const members = Object.entries(baseline).filter(([name]) => !(change.in === 'body' && change.name === name)).map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`);
  if (change.in === 'body' && change.json !== null) members.push(`${JSON.stringify(change.name)}:${change.json}`);
  // Past any proxy only a member no JSON writer makes (1e999): a proxy that parsed it would send another.
  const rewritable = change.in === 'body' && change.json !== null && JSON.stringify(JSON.parse(change.json)) !== change.json;
  return { ...request, rawBody: `{${members.join(',')}}`, contentType: 'application/json', ...(rewritable ? { verbatim: true } : {}) };
}

/** What one case's answer says: held, broken (with the finding), or nothing (429, 5xx, no answer). */
type Graded = { held: true } | { held: false; finding: Finding } | { ungraded: string };

/** The register's sentence behind `item`, for a finding. */
function sentence(item: AcceptanceCase): string {
  const entry = requirements.get(item.requirement)!;
  return `${citationOf(entry)}: "${entry.quote}" (${item.requirement})`;
}

/** Grades one answer to `item`. */
function grade(item: AcceptanceCase, response: HttpResponse): Graded {
  if (response.status === 429 || response.status >= 500) return { ungraded: `${response.status}` };
  const what = `${item.operationId} ${item.field}: ${item.kind}, ${show(item.shown, 80)}`;
  if (item.expect === 'refused') {
    if (response.status >= 400) return { held: true };
    return { held: false, finding: finding(`${what}, was accepted: ${describeExchange(response.exchange)}`, `refused (400): ${sentence(item)}`, `${response.status} ${show(response.json ?? response.text, 160)}`, response.exchange) };
  }
  if (!REFUSING.has(response.status)) return { held: true };
  return { held: false, finding: finding(`${what}, was refused: ${describeExchange(response.exchange)}`, `not refused as invalid: ${sentence(item)}`, `${response.status} ${show(response.json ?? response.text, 160)}`, response.exchange) };
}

/** How many requests of the key's quota the checks leave to the rest of the run: below it they slow to the quota's pace. */
const QUOTA_RESERVE = 50;

/**
 * Sends `item` and grades it: up to three times while the answer grades nothing, after a 429's
 * Retry-After (at most 5 s) or a second after a 5xx. A key whose `RateLimit-Remaining` runs low
 * makes it wait a second, so that the family never spends the quota the other checks need.
 */
async function judge(ctx: CheckContext, item: AcceptanceCase, orders: ReadonlyMap<string, OrderState>): Promise<Graded> {
  let graded: Graded = { ungraded: 'not sent' };
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const request = await requestOf(ctx, item, orders);
    if (request === null) return { ungraded: 'the feed has one page, so it issues no cursor' };
    try {
      const response = await ctx.http.request(request);
      graded = grade(item, response);
      const remaining = Number(response.headers['ratelimit-remaining']);
      if (!('ungraded' in graded)) {
        if (Number.isFinite(remaining) && remaining < QUOTA_RESERVE) await delay(1000);
        return graded;
      }
      const wait = Math.min(5, Number(response.headers['retry-after']) || 1);
      await delay(wait * 1000);
    } catch (error) {
      if (!(error instanceof ExchangeError)) throw error;
      graded = { ungraded: `no answer (${error.message})` };
    }
  }
  return graded;
}

/** Runs `cases`: reads a few at a time, each write's cases one after another in their order. */
async function judgeAll(ctx: CheckContext, cases: readonly AcceptanceCase[], orders: ReadonlyMap<string, OrderState>): Promise<Graded[]> {
  const results: Graded[] = new Array(cases.length);
  const reads = cases.map((item, index) => ({ item, index })).filter(({ item }) => !(item.operationId in WRITE_POOLS));
  const writes = cases.map((item, index) => ({ item, index })).filter(({ item }) => item.operationId in WRITE_POOLS);
  let next = 0;
  const reader = async () => {
    for (let at = next++; at < reads.length; at = next++) results[reads[at]!.index] = await judge(ctx, reads[at]!.item, orders);
  };
  const writer = async () => {
    for (const { item, index } of writes) results[index] = await judge(ctx, item, orders);
  };
  await Promise.all([writer(), ...Array.from({ length: READ_CONCURRENCY }, reader)]);
  return results;
}

/** The check of `group`. */
function acceptanceCheck(group: Group): Check {
  const sample = casesOf(group, 0);
  const pools = [...new Set(sample.flatMap((item) => (WRITE_POOLS[item.operationId] ? [WRITE_POOLS[item.operationId]!.pool] : [])))];
  const verifies = [...new Set(sample.map((item) => item.requirement))].sort();
  return {
    id: group.id,
    family: 'acceptance',
    title: group.title,
    verifies,
    fix: `${group.fix} (${verifies.join(', ')})`,
    requires: ['key:full', ...pools.map((pool) => `orders:${pool}:1` as const)],
    async run(ctx) {
      // Under --fuzz N, a tenth of N more near misses are drawn, so that the campaign grades acceptance too.
      const cases = casesOf(group, ctx.seed, Math.ceil(ctx.fuzz / 10));
      const graded = await judgeAll(ctx, cases, await writeOrders(ctx, cases));
      // A case cites its own rule, which the check verifies unless only a drawn near miss reaches it: then the check's sentence stands.
      const broken = graded.flatMap((result, index) => {
        if (!('held' in result) || result.held) return [];
        const item = cases[index]!;
        return [verifies.includes(item.requirement) ? { ...result.finding, fix: caseFix(item) } : result.finding];
      });
      const ungraded = graded.flatMap((result, index) => ('ungraded' in result ? [`${cases[index]!.operationId} ${cases[index]!.field} ${cases[index]!.kind}: ${result.ungraded}`] : []));
      const findings = broken.slice(0, MAX_FINDINGS);
      if (broken.length > MAX_FINDINGS) findings.push(finding(`${broken.length - MAX_FINDINGS} more generated values were answered against their rule`, 'none', `${broken.length} of ${cases.length} cases; the first ${MAX_FINDINGS} are listed (the same --seed replays them)`));
      if (findings.length === 0 && ungraded.length > 0) ctx.skip(`${ungraded.length} of ${cases.length} generated values could not be graded, each answered 429, 5xx or not at all twice (${ungraded.slice(0, 3).join('; ')})`);
      return findings;
    },
  };
}

/** The acceptance family: one check per level, refused and accepted. */
export const acceptanceChecks: Check[] = GROUPS.map(acceptanceCheck);
