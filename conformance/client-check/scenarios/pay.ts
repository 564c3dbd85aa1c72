/**
 * Scenarios of the payment task: the answer lost after the payment committed, a 429 with
 * `Retry-After` (the rate limit's, and an earlier request with the same key in flight), and
 * the body a write carries.
 */
import type { Finding } from '../../engine/types/check.ts';
import type { LogSummary } from '../control-plane.ts';
import type { ClientScenario, ScenarioSession } from '../scenario.ts';
import { found, neverPaid, payableOrder, requestsOf, retriedAfter } from './grading.ts';
import { faultArmed, orderIs, refusedBeforeCommit, struckFirst } from './staging.ts';
import { counted } from '../../../cli/counted.ts';

const isSuccess = (status: number) => status >= 200 && status <= 299;

/**
 * Findings unless the payment was sent, its last answer was a success and the order holds
 * exactly one payment; their fix sentences cite `rule`, the requirement the scenario verifies.
 */
async function onePayment(session: ScenarioSession, payments: readonly LogSummary[], rule: string): Promise<Finding[]> {
  if (payments.length === 0) return [neverPaid()];
  const findings: Finding[] = [];
  const last = payments.at(-1) as LogSummary;
  if (!isSuccess(last.status) || last.fault !== null) {
    const fix = `keep sending the payment, with the same Idempotency-Key and body, until an answer decides it (${rule})`;
    findings.push(found('The client gave up before the payment was answered', 'attempts until an answer that decides the payment (2xx)', `the last attempt: ${last.status}${last.fault === null ? '' : `, its answer lost (${last.fault.fault})`}`, payments, fix));
  }
  const orderId = session.notes.get('orderId') as string;
  const recorded = (await session.control.historyKinds(session.tenantId, orderId)).filter((kind) => kind === 'payment').length;
  if (recorded !== 1) {
    const fix = `send every attempt of one payment under one Idempotency-Key, so that a retry is answered from the first instead of paying again (${rule})`;
    findings.push(found('The order does not hold exactly one payment', 'exactly one payment in the order\'s history', counted(recorded, 'payment'), payments, fix));
  }
  return findings;
}

/** How the answer of a committed payment is lost, as a fault rule (D51) fires it `after`, and the id of its scenario. */
const lostAnswers = {
  reset: { id: 'client.pay.answer-lost', rule: { fault: 'reset' }, says: 'the connection is reset' },
  '500': { id: 'client.pay.answer-lost-500', rule: { fault: 'status', status: 500 }, says: 'the answer is replaced by a 500' },
  empty: { id: 'client.pay.answer-lost-empty', rule: { fault: 'empty' }, says: 'the connection closes with no answer' },
  // Longer than any sane client timeout and shorter than none: a client with no timeout hangs until killed.
  stall: { id: 'client.pay.answer-lost-stall', rule: { fault: 'stall', durationMs: 120_000 }, says: 'the answer stalls for two minutes' },
} as const;

/** The rule of the lost answers: a retry of a write carries its first attempt's key. */
const SAME_KEY = 'client.idempotency.same-key';

/** What a client does when a write's answer is lost: the fix of the answer-lost scenarios. */
const LOST_FIX = `when a write's answer is lost (a reset, a 5xx, no answer), send it again with the same Idempotency-Key and body until an answer decides it (${SAME_KEY})`;

/** The same, for an answer that never comes: only a client with a timeout of its own notices. */
const STALLED_FIX = `give every request a timeout of its own (for example 5 s), and when a write's answer does not come in time, send it again with the same Idempotency-Key and body (${SAME_KEY})`;

/** (a) The payment commits, then its answer is lost: the retry carries the same key and body, and one payment stands. */
function answerLost(how: keyof typeof lostAnswers): ClientScenario {
  const { id, rule, says } = lostAnswers[how];
  return {
    id,
    title: `A payment whose answer was lost after it committed (${says}) is retried with the same Idempotency-Key and body, and ends as one payment`,
    verifies: ['client.idempotency.same-key'],
    fix: how === 'stall' ? STALLED_FIX : LOST_FIX,
    task: 'pay',
    async setup(session) {
      const inputs = await payableOrder(session, `CC-PAY-LOST-${how.toUpperCase()}`);
      await session.control.addFault(session.tenantId, { keyId: session.clientKeyId, operation: 'attachPayment', when: 'after', ...rule });
      return inputs;
    },
    async staged(session) {
      await orderIs(session, 'New');
      await faultArmed(session, { operation: 'attachPayment', fault: rule.fault, when: 'after' });
    },
    async grade(session, runs) {
      const payments = requestsOf(runs, 'attachPayment');
      const refused = refusedBeforeCommit(payments, SAME_KEY);
      if (refused.length > 0) return refused;
      struckFirst(payments, rule.fault);
      if (payments.length === 1) {
        // A stalled answer is lost only to a client that gives up on it: it needs a request timeout of its own.
        const retry = how === 'stall' ? 'a request timeout (for example 5 s), then a retry with the same Idempotency-Key and body' : `a retry with the same Idempotency-Key and body after ${says}`;
        return [found('The client did not retry a payment whose answer it never received', retry, `one attempt: the payment committed, then ${says}`, payments)];
      }
      return [...(await onePayment(session, payments, SAME_KEY)), ...oneKey(payments, SAME_KEY), ...(await oneBody(session, payments, SAME_KEY))];
    },
  };
}

/** (a) The four ways of losing a committed payment's answer. */
export const answerLostScenarios: readonly ClientScenario[] = [answerLost('reset'), answerLost('500'), answerLost('empty'), answerLost('stall')];

/** Findings unless every attempt carried one and the same Idempotency-Key; their fix sentences cite `rule`. */
function oneKey(attempts: readonly LogSummary[], rule: string): Finding[] {
  const keys = new Set(attempts.map((entry) => entry.idempotencyKey));
  if (keys.has(null)) return [found('A write was sent without an Idempotency-Key', 'every attempt with one Idempotency-Key', 'an attempt without the header', attempts, `send every write with an Idempotency-Key, the same one on each of its attempts (${rule})`)];
  if (keys.size > 1) return [found('The retry carried a new Idempotency-Key', 'every attempt of one write with the same Idempotency-Key', `${keys.size} different keys over ${attempts.length} attempts`, attempts, `keep one Idempotency-Key for every attempt of the same write (${rule})`)];
  return [];
}

/**
 * (a) A cancel or an archive whose answer is lost after it committed: only a retry under the
 * same key gets the original answer (D26); a fresh attempt is refused, 409 for a second cancel
 * (D11), 404 for a second archive (D12).
 */
function writeAnswerLost(task: 'cancel' | 'archive'): ClientScenario {
  const operation = task === 'cancel' ? 'cancelOrder' : 'archiveOrder';
  return {
    id: task === 'cancel' ? 'client.cancel.answer-lost' : 'client.archive.answer-lost',
    title: `A${task === 'archive' ? 'n' : ''} ${task} whose answer was lost after it committed is retried with the same Idempotency-Key, and gets the original answer`,
    verifies: ['client.idempotency.same-key'],
    fix: LOST_FIX,
    task,
    async setup(session) {
      const externalId = `CC-${task.toUpperCase()}-LOST`;
      session.notes.set('orderId', await session.control.createOrder(session.tenantId, externalId));
      await session.control.addFault(session.tenantId, { keyId: session.clientKeyId, operation, fault: 'reset', when: 'after' });
      return { externalId };
    },
    async staged(session) {
      await orderIs(session, 'New');
      await faultArmed(session, { operation, fault: 'reset', when: 'after' });
    },
    async grade(_session, runs) {
      const attempts = requestsOf(runs, operation);
      const refused = refusedBeforeCommit(attempts, SAME_KEY);
      if (refused.length > 0) return refused;
      struckFirst(attempts, 'reset');
      if (attempts.length === 0) return [found(`The client never sent the ${task}`, `a ${operation} request`, 'none in the request log', [])];
      if (attempts.length === 1) return [found(`The client did not retry a${task === 'archive' ? 'n' : ''} ${task} whose answer it never received`, 'a retry with the same Idempotency-Key after the connection was reset', 'one attempt, its answer lost', attempts)];
      const last = attempts.at(-1) as LogSummary;
      const findings = oneKey(attempts, SAME_KEY);
      if (!isSuccess(last.status)) {
        const fix = `retry the ${task} under the Idempotency-Key of its first attempt: its stored answer is replayed, where a fresh attempt is refused (${SAME_KEY})`;
        findings.push(found(`The ${task} ended refused, though it had been done`, 'the original answer, replayed for the same Idempotency-Key', `${last.status} ${last.problemType ?? ''}`, attempts, fix));
      }
      return findings;
    },
  };
}

/** (a) Cancel and archive, their answers lost after they committed. */
export const writeAnswerLostScenarios: readonly ClientScenario[] = [writeAnswerLost('cancel'), writeAnswerLost('archive')];

/** (c) A 429 with `Retry-After: 2` on the payment: retried, and no sooner than 2 s later. */
export const retryAfter: ClientScenario = {
  id: 'client.pay.retry-after',
  title: 'A 429 is retried, not abandoned, and no sooner than its Retry-After',
  verifies: ['int.errors.rate-limit-429'],
  fix: 'retry a 429 once its Retry-After has passed, no sooner, and keep going until the payment is answered (int.errors.rate-limit-429)',
  task: 'pay',
  async setup(session) {
    const inputs = await payableOrder(session, 'CC-PAY-429');
    await session.control.addFault(session.tenantId, { keyId: session.clientKeyId, operation: 'attachPayment', fault: 'status', status: 429, retryAfterSeconds: 2 });
    return inputs;
  },
  async staged(session) {
    await orderIs(session, 'New');
    await faultArmed(session, { operation: 'attachPayment', fault: 'status', status: 429 });
  },
  async grade(session, runs) {
    const payments = requestsOf(runs, 'attachPayment');
    struckFirst(payments, 'status', 429);
    const findings = retriedAfter(payments, 2, 'int.errors.rate-limit-429');
    if (payments.length === 1 && payments[0]?.status === 429) return findings;
    return [...findings, ...(await onePayment(session, payments, 'int.errors.rate-limit-429'))];
  },
};

/** Findings unless every attempt carried the first one's body (the Idempotency-Key stands for one request); their fix sentences cite `rule`. */
async function oneBody(session: ScenarioSession, attempts: readonly LogSummary[], rule: string): Promise<Finding[]> {
  const bodies = new Set(await Promise.all(attempts.map(async (entry) => (await session.entry(entry)).request.body)));
  if (bodies.size <= 1) return [];
  return [found('The retry carried another body', 'every attempt with the same body (the key stands for one request)', `${bodies.size} different bodies over ${attempts.length} attempts`, attempts, `send every attempt of a write with its first attempt's body, byte for byte: one Idempotency-Key stands for one request (${rule})`)];
}

/**
 * (c) The payment is answered 429 `idempotency.inFlight` with `Retry-After: 2`, as if an earlier
 * request with its Idempotency-Key were still running (a fault rule stages it, D51): the client
 * retries with the same key (and, over its retries, one body), no sooner than 2 s later, and one
 * payment stands.
 */
export const inFlight: ClientScenario = {
  id: 'client.pay.in-flight',
  title: 'A 429 idempotency.inFlight is retried with the same Idempotency-Key and body after its Retry-After, not abandoned',
  verifies: ['int.idempotency.in-flight'],
  fix: 'take a 429 idempotency.inFlight as not yet: send the same request again, with the same Idempotency-Key and body, once its Retry-After has passed (int.idempotency.in-flight)',
  task: 'pay',
  async setup(session) {
    const inputs = await payableOrder(session, 'CC-PAY-IN-FLIGHT');
    await session.control.addFault(session.tenantId, { keyId: session.clientKeyId, operation: 'attachPayment', fault: 'status', status: 429, problemType: 'idempotency.inFlight', retryAfterSeconds: 2, times: 1 });
    return inputs;
  },
  async staged(session) {
    await orderIs(session, 'New');
    await faultArmed(session, { operation: 'attachPayment', fault: 'status', status: 429 });
  },
  async grade(session, runs) {
    const payments = requestsOf(runs, 'attachPayment');
    if (payments.length === 0) return [neverPaid()];
    struckFirst(payments, 'status', 429);
    const findings = retriedAfter(payments, 2, 'int.idempotency.in-flight');
    if (payments.length === 1) return findings;
    // The 429 is answered before the body is read, as the server's own is (D13): the log holds
    // the bodies of the retries only, and those must agree (onePayment then sees it paid once).
    const retries = payments.filter((entry) => entry.fault === null);
    return [...findings, ...oneKey(payments, 'int.idempotency.in-flight'), ...(await oneBody(session, retries, 'int.idempotency.in-flight')), ...(await onePayment(session, payments, 'int.idempotency.in-flight'))];
  },
};

/** The media type of a Content-Type value, lower case, without parameters. */
function mediaType(contentType: string | null): string | null {
  return contentType === null ? null : (contentType.split(';')[0] as string).trim().toLowerCase();
}

/** True when `text` is a JSON object. */
function isJsonObject(text: string | null): boolean {
  if (text === null) return false;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** (g) Every write with a body says `application/json` and sends a JSON object the sandbox reads. */
export const jsonBody: ClientScenario = {
  id: 'client.pay.json-body',
  title: 'Writes send Content-Type: application/json and a body the API reads',
  verifies: ['int.body.media-type'],
  fix: "send every write's body as a JSON object the operation takes, with Content-Type: application/json (int.body.media-type)",
  task: 'pay',
  setup: (session) => payableOrder(session, 'CC-PAY-JSON'),
  staged: (session) => orderIs(session, 'New'),
  async grade(session, runs) {
    const writes = requestsOf(runs, 'attachPayment');
    if (writes.length === 0) return [neverPaid()];
    const findings: Finding[] = [];
    for (const write of writes) {
      const { request } = await session.entry(write);
      if (mediaType(request.contentType) !== 'application/json') {
        const fix = `send Content-Type: application/json with every write that has a body${request.contentType === null ? '' : `, not ${request.contentType}`} (int.body.media-type)`;
        findings.push(found('A write was sent without Content-Type: application/json', 'Content-Type: application/json', request.contentType ?? 'no Content-Type', [write], fix));
      } else if (!isJsonObject(request.body) || write.status === 415 || write.problemType === 'api.malformed_request') {
        const fix = 'send a JSON object with the members the operation takes (a payment: paymentId, amount, currency) as the body (int.body.media-type)';
        findings.push(found('A write carried a body the API could not read', 'a JSON object the operation accepts', `${write.status} ${write.problemType ?? ''}: ${(request.body ?? '(no body)').slice(0, 200)}`, [write], fix));
      }
    }
    return findings;
  },
};
