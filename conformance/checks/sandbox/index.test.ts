import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalog } from '../../../spec/load.ts';
import type { SqliteStore } from '../../../server/store/index.ts';
import { answerJson, type AnswerRewrite, type ProxiedAnswer, type RunningProxy, startProxy } from '../../../dev/testing/conformance/proxy.ts';
import { provisionReference, type ReferenceTarget, runChecks, startReference } from '../../../dev/testing/conformance/reference.ts';
import type { Profile } from '../../engine/types/profile.ts';
import type { RunReport } from '../../engine/types/report.ts';
import { sandboxChecks } from './index.ts';

/**
 * The codes each check produces: every `reach: sandbox` code once, and tenants.tenant.archived.
 * The checks of decisions on the plane (D30, D31, D34, D35, D39, D43, D48, D87) own none: the codes
 * they meet are owned by the checks of the rules that name them.
 */
const owners: Record<string, string[]> = {
  'sandbox.access': [],
  'sandbox.profiles': [],
  'sandbox.requests': [],
  'sandbox.tenants.lifecycle': [],
  'sandbox.tags.decided': [],
  'sandbox.ministatuses.decided': [],
  'sandbox.trips.cancel': [],
  'sandbox.orders.list': [],
  'sandbox.trips.list': [],
  'sandbox.tenants': ['tenants.country.required', 'tenants.country.invalid', 'tenants.lifecycle.state.invalid'],
  'sandbox.tenants.skills': ['tenants.skills.value.invalid', 'tenants.skills.duplicate', 'tenants.skills.too_many'],
  'sandbox.apikeys': ['apikeys.name_required', 'apikeys.invalid_scope', 'apikeys.invalid_rate_limit', 'apikeys.not_found', 'apikeys.already_revoked'],
  'sandbox.apikeys.maximum': ['apikeys.rate_limit_above_max'],
  'sandbox.tenant.archived': ['tenants.tenant.archived'],
  'sandbox.tenant.archived.reads': [],
  'sandbox.tags': ['tags.name.invalid', 'tags.color.invalid', 'tags.duplicate', 'tags.notFound'],
  'sandbox.ministatuses': ['ministatuses.name.invalid', 'ministatuses.duplicate', 'ministatuses.notFound', 'orders.miniStatus.invalid', 'orders.miniStatus.unknown'],
  'sandbox.intake': [
    'orders.externalId.required',
    'orders.lines.required',
    'orders.line.warehouseRequired',
    'orders.line.productRequired',
    'orders.line.requestedQty.invalid',
    'orders.line.measure.invalid',
    'orders.price.invalid',
    'orders.line.roleNotAllowed',
    'orders.return.relatedRequired',
    'orders.duplicate',
    'orders.notArchived',
  ],
  'sandbox.import.limit': ['import.rows.too_many'],
  'sandbox.import.rows': ['import.file.invalid', 'import.row.invalid'],
  'sandbox.history': ['audit.page.retired', 'audit.cursor.invalid'],
  'sandbox.trips.build': ['planning.trip_no_lines', 'planning.order_not_plannable', 'planning.order_line_already_assigned', 'planning.trip_not_found'],
  'sandbox.trips.lifecycle': ['planning.trip_not_confirmed', 'planning.trip_not_in_progress', 'planning.trip_has_open_stops', 'trips.mutation.cancelReasonRequired', 'trips.mutation.tripNotCancelable'],
  'sandbox.outcomes': [
    'trips.outcomes.lineMismatch',
    'trips.outcomes.invariantViolation',
    'trips.outcomes.wrongVocabulary',
    'trips.outcomes.reasonRequired',
    'trips.stop.reasonRequired',
    'trips.stop.notFound',
    'trips.stop.tripNotActive',
    'trips.stop.illegalTransition',
  ],
};
const ownedCodes = Object.entries(owners).flatMap(([id, codes]) => codes.map((code) => [code, id] as const));
/** Decision checks that meet an owned code too, and so fail with its owner when it is answered wrongly. */
const alsoMeeting: Record<string, string[]> = { 'tenants.tenant.archived': ['sandbox.tenants.lifecycle'], 'audit.cursor.invalid': ['sandbox.orders.list', 'sandbox.trips.list'] };
/** The checks that expect no field in any 400 they meet. */
const withoutFieldRules = ['sandbox.access', 'sandbox.profiles', 'sandbox.requests', 'sandbox.tenants.lifecycle', 'sandbox.tags.decided', 'sandbox.trips.cancel', 'sandbox.tenant.archived', 'sandbox.tenant.archived.reads'];
const checkById = new Map(sandboxChecks.map((check) => [check.id, check]));

let target: ReferenceTarget;
let proxy: RunningProxy;
/** What the proxy in front of the reference breaks; null forwards everything unchanged. */
let breakage: AnswerRewrite | null = null;
let behindProxy: Profile;
let report: RunReport;

beforeAll(async () => {
  target = await provisionReference();
  proxy = await startProxy(target.server.url, (answer, request, resend, requestBody) => (breakage === null ? answer : breakage(answer, request, resend, requestBody)));
  behindProxy = { ...target.profile, target: proxy.url, sandbox: { url: `${proxy.url}/sandbox/v1`, token: target.profile.sandbox!.token } };
  ({ report } = await runChecks(sandboxChecks, target.profile));
});
afterAll(async () => {
  await proxy?.close();
  await target?.close();
});

/** `answer` with its JSON body replaced by `change(body)` and the status by `status`. */
function rewritten(answer: ProxiedAnswer, status: number, body: unknown): ProxiedAnswer {
  return { ...answer, status, body: Buffer.from(JSON.stringify(body)) };
}

/** A target that answers `code` with another status (a 400 becomes a 422, anything else a 400), consistently in the body. */
function otherStatus(code: string): AnswerRewrite {
  return (answer) => {
    const body = answerJson(answer) as Record<string, unknown> | undefined;
    if (body?.['type'] !== code) return answer;
    const status = answer.status === 400 ? 422 : 400;
    return rewritten(answer, status, { ...body, status });
  };
}

/** A target whose 400 carrying `code` (every control-plane 400 when `code` is null) comes without `errors`. */
function withoutErrors(code: string | null): AnswerRewrite {
  return (answer, request) => {
    const body = answerJson(answer) as Record<string, unknown> | undefined;
    if (answer.status !== 400 || !request.url.startsWith('/sandbox/v1/') || (code !== null && body?.['type'] !== code)) return answer;
    const { errors: _dropped, ...rest } = body ?? {};
    return rewritten(answer, 400, rest);
  };
}

/** A target whose import answer reports every row as created: import.row.invalid never shows. */
const rowsUnreported: AnswerRewrite = (answer, request) => {
  const body = answerJson(answer) as { rows?: Record<string, unknown>[] } | undefined;
  if (answer.status !== 200 || !request.url.endsWith('/order-imports') || !Array.isArray(body?.rows)) return answer;
  return rewritten(answer, 200, { ...body, rows: body.rows.map((row) => ({ ...row, type: null, errors: [] })) });
};

/** A breakage of `code` that its check must notice. */
function broken(code: string): AnswerRewrite {
  return code === 'import.row.invalid' ? rowsUnreported : otherStatus(code);
}

/** Runs `ids` (every sandbox check by default) behind the proxy with `rewrite`; returns the report. */
async function runBroken(rewrite: AnswerRewrite, ids?: string[]): Promise<RunReport> {
  breakage = rewrite;
  try {
    return (await runChecks(ids === undefined ? sandboxChecks : ids.map((id) => checkById.get(id)!), behindProxy)).report;
  } finally {
    breakage = null;
  }
}

/** The ids of the failed checks of `run`; fails the test on any error or skip. */
function failedIn(run: RunReport): string[] {
  expect(run.results.filter((result) => result.outcome === 'error' || result.outcome === 'skip').map((result) => [result.id, result.reason ?? result.error?.message])).toEqual([]);
  return run.results.filter((result) => result.outcome === 'fail').map((result) => result.id);
}

describe('sandbox checks against the provisioned reference', () => {
  it('own every code of reach sandbox once, and tenants.tenant.archived', () => {
    const sandboxCodes = [...catalog.values()].filter((entry) => entry.reach === 'sandbox').map((entry) => entry.code);
    expect(sandboxCodes).toHaveLength(54);
    expect(ownedCodes.map(([code]) => code).sort()).toEqual([...sandboxCodes, 'tenants.tenant.archived'].sort());
    expect(Object.keys(owners).sort()).toEqual(sandboxChecks.map((check) => check.id).sort());
  });

  it('pass, every one', () => {
    expect(report.results.map((result) => [result.id, result.outcome, result.findings[0]?.message ?? result.error?.message])).toEqual(sandboxChecks.map((check) => [check.id, 'pass', undefined]));
  });

  it('exercise every sandbox code and tenants.tenant.archived, each with its status and a valid body', () => {
    const states = Object.fromEntries(report.coverage.codes.filter((entry) => entry.reach === 'sandbox' || entry.code === 'tenants.tenant.archived').map((entry) => [entry.code, [entry.state, entry.mismatched]]));
    expect(Object.keys(states)).toHaveLength(55);
    expect(Object.entries(states).filter(([, [state, mismatched]]) => state !== 'exercised' || mismatched !== 0)).toEqual([]);
  });

  it('pass against startReference({ sandbox: true }) too', async () => {
    const handBuilt = await startReference({ sandbox: true });
    try {
      const { report: run } = await runChecks(sandboxChecks, handBuilt.profile);
      expect(run.results.filter((result) => result.outcome !== 'pass').map((result) => [result.id, result.outcome, result.findings[0]?.message])).toEqual([]);
    } finally {
      await handBuilt.close();
    }
  });

  it('skip, every one, when the profile has no sandbox', async () => {
    const { sandbox: _none, ...withoutSandbox } = target.profile;
    const { report: run } = await runChecks(sandboxChecks, withoutSandbox);
    expect(run.results.map((result) => [result.outcome, result.reason])).toEqual(sandboxChecks.map(() => ['skip', 'profile has no sandbox']));
  });
});

describe('sandbox checks against broken targets', () => {
  it.each(Object.entries(owners).filter(([, codes]) => codes.length > 0).map(([id, codes]) => [id, codes[0]!] as const))('fail %s alone when %s is answered wrongly', async (id, code) => {
    const expected = [id, ...(alsoMeeting[code] ?? [])];
    expect(failedIn(await runBroken(broken(code)))).toEqual(sandboxChecks.map((check) => check.id).filter((candidate) => expected.includes(candidate)));
  });

  it.each(ownedCodes)('notice %s (in %s) answered wrongly', async (code, id) => {
    const run = await runBroken(broken(code), [id]);
    expect(failedIn(run)).toEqual([id]);
    expect(run.results[0]!.findings.map((found) => found.message).filter((message) => message.includes(`(${code})`))).not.toEqual([]);
  });

  it.each(ownedCodes.filter(([code]) => catalog.get(code as never)?.status === 400))('notice %s (in %s) without errors[0].field', async (code, id) => {
    const run = await runBroken(withoutErrors(code), [id]);
    expect(failedIn(run)).toEqual([id]);
    expect(run.results[0]!.findings.map((found) => [found.message.includes(`(${code})`), found.expected.startsWith('errors[0]: field ')])).toContainEqual([true, true]);
  });

  it('fail every check with a field rule when the control plane drops errors from its 400s', async () => {
    expect(failedIn(await runBroken(withoutErrors(null)))).toEqual(sandboxChecks.map((check) => check.id).filter((id) => !withoutFieldRules.includes(id)));
  });

  it('fail sandbox.orders.list and sandbox.trips.list alone when the lists ignore status', async () => {
    const run = await runBroken((answer, request, resend) => {
      const url = new URL(request.url, 'http://proxy');
      if (request.method !== 'GET' || answer.status !== 200 || !/^\/sandbox\/v1\/tenants\/[^/]+\/(orders|trips)$/.test(url.pathname) || !url.searchParams.has('status')) return answer;
      url.searchParams.delete('status');
      return resend({ url: `${url.pathname}${url.search}` });
    });
    expect(failedIn(run)).toEqual(['sandbox.orders.list', 'sandbox.trips.list']);
    expect(run.results.filter((result) => result.outcome === 'fail').flatMap((result) => result.findings.map((found) => found.message))).toEqual([
      'the order list by the status New, read 2 a page',
      'the order list by the statuses Planned and Cancelled, read 2 a page',
      'the trip list by the status Confirmed, read 2 a page',
      'the trip list by the statuses InProgress and Cancelled, read 2 a page',
    ]);
  });

  it('fail sandbox.intake alone, naming the id, when the intake takes the external ids . and .. (D92)', async () => {
    const run = await runBroken(async (answer, request, _resend, requestBody) => {
      if (request.method !== 'POST' || !/^\/sandbox\/v1\/tenants\/[^/]+\/orders$/.test(request.url)) return answer;
      const { externalId } = JSON.parse((await requestBody()).toString('utf8')) as { externalId?: unknown };
      return externalId === '.' || externalId === '..' ? rewritten(answer, 201, { id: '00000000-0000-4000-8000-000000000000', externalId, status: 'New' }) : answer;
    });
    expect(failedIn(run)).toEqual(['sandbox.intake']);
    expect(run.results.find((result) => result.id === 'sandbox.intake')!.findings.map((found) => found.message.split(':')[0])).toEqual(['an order whose externalId is ".", which no URL can carry (api.malformed_request)', 'an order whose externalId is "..", which no URL can carry (api.malformed_request)']);
  });

  it('fail sandbox.tenant.archived.reads alone when an archived tenant\'s key no longer reads', async () => {
    // whoami of an archived tenant's key is refused as if reads were writes.
    // The proxy rewrites synchronously: it reads the tenant's state straight from the reference's database.
    const state = target.store.db.prepare<[string], { state: string }>('SELECT state FROM tenants WHERE id = ?');
    const stateOf = (tenantId: string) => state.get(tenantId)?.state;
    const run = await runBroken((answer, request) => {
      const tenantId = (answerJson(answer) as { tenantId?: string } | undefined)?.tenantId;
      if (request.url !== '/api/v1/integration/whoami' || answer.status !== 200 || tenantId === undefined || stateOf(tenantId) !== 'Archived') return answer;
      return rewritten({ ...answer, headers: { ...answer.headers, 'content-type': 'application/problem+json' } }, 409, { type: 'tenants.tenant.archived', title: 'Conflict', status: 409, detail: null, instance: null });
    });
    expect(failedIn(run)).toEqual(['sandbox.tenant.archived.reads']);
    expect(run.results.find((result) => result.id === 'sandbox.tenant.archived.reads')!.findings.map((found) => [found.expected, found.received.slice(0, 3)])).toEqual([['200 (reads keep working)', '409']]);
  });

  it('fail sandbox.tenant.archived (and D31\'s lifecycle check) when an archived tenant writes as a suspended one', async () => {
    const suspendedOnly = (store: SqliteStore): SqliteStore => ({
      ...store,
      tenants: { ...store.tenants, setState: (id, state) => store.tenants.setState(id, state === 'Archived' ? 'Suspended' : state) },
    });
    const wrong = await provisionReference({ wrapStore: suspendedOnly });
    try {
      const { report: run } = await runChecks(sandboxChecks, wrong.profile);
      // D31's lifecycle check sees the archive leave the tenant Suspended, at DECISION level.
      expect(failedIn(run)).toEqual(['sandbox.tenants.lifecycle', 'sandbox.tenant.archived']);
      expect(run.results.find((result) => result.id === 'sandbox.tenants.lifecycle')!.level).toBe('DECISION');
      expect(run.results.find((result) => result.id === 'sandbox.tenant.archived')!.findings.map((found) => [found.expected, found.received])).toContainEqual(['type tenants.tenant.archived', 'type tenants.tenant.suspended']);
    } finally {
      await wrong.close();
    }
  });
});
