/**
 * Which requirement of the register makes a target refuse or accept each class of generated
 * value, field by field: the seeds' sentence where one says the input is refused 400 or
 * allowed (MUST, SHOULD), else the decision of spec/DECISIONS.md that does (DECISION). This
 * is waybill's reading of the seeds, the one place it is written; acceptance-cases.test.ts holds
 * every id to the register and every generated field to a rule. A class no rule names is not
 * generated: where neither the seeds nor a decision says what a value gets, nothing is graded.
 */
/** What a target must do with a case's input. */
export type Expectation = 'refused' | 'accepted';

/** What a generated value is. */
export type CaseClass =
  | 'valid'
  | 'above-cap'
  | 'longest'
  | 'unknown'
  | 'near-miss'
  | 'empty'
  | 'malformed'
  | 'tampered'
  | 'repeated'
  | 'too-long'
  | 'out-of-range'
  | 'not-finite'
  | 'wrong-type'
  | 'null'
  | 'missing';

/** What a class of values gets, and the requirement that says so. */
export interface Rule {
  expect: Expectation;
  requirement: string;
}

const refused = (requirement: string): Rule => ({ expect: 'refused', requirement });
const accepted = (requirement: string): Rule => ({ expect: 'accepted', requirement });

/** The rules of the two feeds' parameters; `own` names the feed's seed requirements. */
function feedRules(own: { status: Partial<Record<CaseClass, Rule>>; since: string; cursor: string; malformedCursor: string; limit: string }): Record<string, Partial<Record<CaseClass, Rule>>> {
  return {
    'query status': own.status,
    'query since': { valid: accepted(own.since), malformed: refused('D9'), repeated: refused('D86') },
    'query cursor': { valid: accepted(own.cursor), malformed: refused(own.malformedCursor), tampered: refused('D5'), empty: refused('D5'), repeated: refused('D86') },
    'query limit': { valid: accepted(own.limit), 'above-cap': accepted(own.limit), malformed: refused('D8'), repeated: refused('D86') },
    'query (unknown)': { unknown: refused('D86') },
    'header X-Request-Id': { longest: accepted('D23'), malformed: accepted('D23') },
    credentials: { missing: refused('int.auth.unauthenticated') },
  };
}

/** The header rules every write shares. */
const writeRules: Record<string, Partial<Record<CaseClass, Rule>>> = {
  'header Idempotency-Key': { longest: accepted('D13'), 'too-long': refused('D13'), malformed: refused('D13') },
  'header X-Request-Id': { longest: accepted('D23'), malformed: accepted('D23') },
  credentials: { missing: refused('int.auth.unauthenticated') },
};

/** Every rule, by operation and field (`query status`, `body amount`, …). */
export const RULES: Record<string, Record<string, Partial<Record<CaseClass, Rule>>>> = {
  orderFeed: feedRules({
    // "values are the order statuses. An unknown status is answered 400."; the empty string is D9's.
    status: { valid: accepted('int.orders-feed.status'), 'near-miss': refused('int.orders-feed.status'), empty: refused('D9') },
    since: 'int.orders-feed.since',
    cursor: 'int.orders-feed.cursor',
    malformedCursor: 'int.orders-feed.cursor',
    limit: 'int.orders-feed.limit',
  }),
  tripFeed: feedRules({
    // "Allowed status values for the trip feed as declared on the parameter: not shown": D16 declares them.
    status: { valid: accepted('D16'), 'near-miss': refused('D16'), empty: refused('D16') },
    since: 'int.trips-feed.params',
    cursor: 'int.trips-feed.params',
    malformedCursor: 'int.trips-feed.refusals',
    limit: 'int.trips-feed.params',
  }),
  whoami: {
    'header X-Request-Id': { longest: accepted('D23'), malformed: accepted('D23') },
    credentials: { missing: refused('int.auth.unauthenticated') },
  },
  attachPayment: {
    ...writeRules,
    // A non-uuid paymentId is an invalid body field by inference only: the register's SHOULD.
    'body paymentId': { valid: accepted('int.payment.paymentId'), malformed: refused('int.payment.paymentId-format'), 'wrong-type': refused('cat.api.malformed-request'), missing: refused('int.payment.body') },
    'body amount': { valid: accepted('int.payment.amount'), 'out-of-range': refused('int.payment.amount-invalid'), 'not-finite': refused('D19'), 'wrong-type': refused('cat.api.malformed-request'), missing: refused('int.payment.body') },
    'body currency': { valid: accepted('int.payment.currency'), 'near-miss': refused('int.payment.currency-invalid'), empty: refused('int.payment.currency-invalid'), 'wrong-type': refused('cat.api.malformed-request'), missing: refused('int.payment.body') },
    'body (unknown)': { unknown: accepted('D19') },
  },
  cancelOrder: {
    ...writeRules,
    'body reason': { longest: accepted('D86'), 'too-long': refused('D86'), 'wrong-type': refused('cat.api.malformed-request'), null: refused('D19') },
    'body (unknown)': { unknown: accepted('D19') },
  },
  archiveOrder: writeRules,
};

/** The rule of values of class `cls` in `field` of `operationId`, or null when none says what they get. */
export function ruleOf(operationId: string, field: string, cls: CaseClass): Rule | null {
  return RULES[operationId]?.[field]?.[cls] ?? null;
}
