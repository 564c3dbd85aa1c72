/**
 * What every generated client's program shares: the steps it reports, the shapes the two
 * scenarios ask of a client, and two checks that compile only where the contract types what a
 * client reads. The programs run in a folder of their own beside the generated code
 * (dev/clients/generated-clients.test.ts copies them there), compiled with `tsc --strict`.
 */

/** The steps of each document's program, in the order they run; the test expects each to pass. */
export const STEPS = {
  'sandbox.yaml': ['createTenant', 'createApiKey', 'createOrder', 'importOrders', 'createFault', 'orderHistory'],
  'openapi.yaml': ['sync', 'since', 'pay', 'pay-replayed', 'problem-400', 'cancel-with-body', 'cancel-without-body', 'problem-409', 'archive', 'problem-404', 'problem-429', 'changes'],
} as const;

/** A step of either document's program. */
export type StepName = (typeof STEPS)[keyof typeof STEPS][number];

/** One answer as a generated client gave it: the status, a 2xx body, a problem's `type`, the headers. */
export interface Answer<Body> {
  status: number;
  body: Body | undefined;
  problemType: string | null | undefined;
  headers: Headers;
}

/** The fields of an order the scenario reads. */
export interface OrderShape {
  id: string;
  externalId: string | null;
  status: string;
  updatedAtUtc: string;
}

/** A page of the order feed, as the scenario reads it. */
export interface PageShape {
  items: OrderShape[];
  nextCursor: string | null;
}

/** An order the control plane takes in (one line). A type, not an interface: it must fit a row typed as an object with any properties. */
export type OrderIntakeShape = {
  externalId: string;
  type: 'Delivery';
  lines: { warehouseId: string; productId: string; quantity: number }[];
};

/** What the program is given, as JSON in WAYBILL_CLIENT_INPUT. */
export interface ProgramInput {
  /** The sandbox's base URL (no path). */
  url: string;
  adminToken: string;
  /** What the control plane's program set up; absent while it runs its setup. */
  setup?: Setup;
}

/** The tenant, key and orders one generator's programs work with. */
export interface Setup {
  tenantId: string;
  key: string;
  /** The external ids of every order taken in, by the control plane's createOrder and importOrders. */
  externalIds: string[];
  /** The orders the integration program writes to, by role: external id and id. */
  paid: { externalId: string; id: string };
  cancelledWithReason: { externalId: string; id: string };
  cancelledBare: { externalId: string; id: string };
}

/** The orders the control plane takes in one by one; the paid one's external id needs every kind of escaping in a path. */
export const ORDERS = {
  paid: 'GC 1/ä#?%',
  cancelledWithReason: 'GC-2',
  cancelledBare: 'GC-3',
} as const;

/** The orders imported in one call. */
export const IMPORTED = ['GC-4', 'GC-5'] as const;

/** The payment the integration program attaches twice under one Idempotency-Key. */
export const PAYMENT = { paymentId: '4c1a7e93-2b5d-4f08-9e6c-3a8d1b7f5e20', amount: 129.9, currency: 'EUR' } as const;

/** The reason the integration program cancels with, which the order's history keeps. */
export const CANCEL_REASON = 'Customer cancelled by phone';

/** The fault rule the control plane adds: the next trip feed call is answered 429. */
export const TRIP_FEED_THROTTLED = { operation: 'tripFeed', fault: 'status', status: 429, retryAfterSeconds: 1, times: 1 } as const;

/** An order to take in under `externalId`. */
export function intake(externalId: string): OrderIntakeShape {
  return {
    externalId,
    type: 'Delivery',
    lines: [{ warehouseId: '5c8e7d6f-1a2b-4c3d-9e8f-7a6b5c4d3e2f', productId: '0d6b9a3e-2c4f-4e1a-8b7d-9f0e1c2a3b4d', quantity: 1 }],
  };
}

/** The input the test passes; exits 2 without it. */
export function programInput(): ProgramInput {
  const text = process.env['WAYBILL_CLIENT_INPUT'];
  if (text === undefined) {
    console.error('WAYBILL_CLIENT_INPUT is not set');
    process.exit(2);
  }
  const input: ProgramInput = JSON.parse(text);
  return input;
}

/** The setup the control plane's program made; throws when it is missing. */
export function setupOf(input: ProgramInput): Setup {
  if (input.setup === undefined) throw new Error('no setup in WAYBILL_CLIENT_INPUT');
  return input.setup;
}

/** Prints a line the test reads: the step's name, whether it passed, and why not. */
export async function step(name: StepName, run: () => Promise<void>): Promise<void> {
  try {
    await run();
    console.log(JSON.stringify({ step: name, passed: true }));
  } catch (error) {
    console.log(JSON.stringify({ step: name, passed: false, detail: error instanceof Error ? error.message : String(error) }));
  }
}

/** Throws `Expected: … / Received: …` unless `received` is `expected`. */
export function expectValue(what: string, received: unknown, expected: unknown): void {
  if (received !== expected) throw new Error(`${what}: Expected: ${JSON.stringify(expected)} / Received: ${JSON.stringify(received)}`);
}

/** The 2xx body of an answer whose status is `status`; throws naming the answer otherwise. */
export function bodyOf<Body>(what: string, answer: Answer<Body>, status: number): Body {
  expectValue(`${what}: status (problem ${JSON.stringify(answer.problemType)})`, answer.status, status);
  if (answer.body === undefined) throw new Error(`${what}: no body`);
  return answer.body;
}

/** The string literal a check's parameter turns into where the contract types a problem's `type` as any string. */
type CodeUnion<T> = string extends T ? 'not a union of codes: the contract types this problem type as any string (issue 40 item 3)' : T;

/**
 * A problem's `type` as the client types it. Compiles only where that type is the union of the
 * codes the answer can carry, so that a `switch` on it is checked by the compiler.
 */
export function problemCode<T extends string | null | undefined>(type: T & CodeUnion<T>): string | null | undefined {
  return type;
}

/** What a check's parameter turns into where the contract gives an object no properties. */
type NoShape = 'no shape: the contract gives this object no properties, so none of its fields can be read (issue 40 item 2)';

/**
 * `T`, or NoShape where no field of `T` can be read: an object of no known keys (`{}`, as
 * openapi-fetch reads `Record<string, never>`), or one whose every field reads as `never` or
 * `undefined`. An object with typed additional properties, or a union of shapes, is readable.
 */
type Shaped<T> = [keyof T] extends [never]
  ? {} extends T
    ? NoShape
    : T
  : string extends keyof T
    ? [T[string & keyof T]] extends [undefined]
      ? NoShape
      : T
    : T;

/** An object whose fields a client can read: compiles only where the contract gives it a shape (or typed additional properties). */
export function shaped<T extends object>(data: T & Shaped<T>): object {
  return data;
}

/** The value of `field` of `data`, where it is there. */
export function fieldOf(data: object, field: string): unknown {
  return field in data ? Object.entries(data).find(([name]) => name === field)?.[1] : undefined;
}

/** Waits `seconds` (a Retry-After). */
export function pause(seconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, seconds * 1000));
}
