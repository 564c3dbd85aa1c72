/**
 * Keeps secrets out of everything the suite writes: every profile key, the sandbox token and the
 * admin token are replaced by `<redacted:name>` in records and findings, and by a
 * `$WAYBILL_…` environment variable in replay lines.
 */
import type { ExchangeRecord, Profile, RecordedMessage } from './types.ts';

/** A secret the run knows, with the label and environment variable that stand in for it. */
export interface Secret {
  value: string;
  /** `full`, `ordersRead`, `sandboxToken`, … */
  name: string;
  /** `WAYBILL_KEY_FULL`, `WAYBILL_SANDBOX_TOKEN`, … */
  envVar: string;
}

/** A piece of text split around its secrets. */
export type Segment = { literal: string } | { secret: Secret };

/** Replaces the run's secrets wherever they occur. */
export interface Redactor {
  /** The secrets, longest value first. */
  secrets: readonly Secret[];
  /** `text` with each secret replaced by `<redacted:name>`. */
  redact(text: string): string;
  /** `bytes` with each secret replaced by `<redacted:name>`. */
  redactBytes(bytes: Buffer): Buffer;
  /** `text` cut into literal pieces and secrets, in order. */
  segments(text: string): Segment[];
  /** The secret of a profile key name, if the profile has it. */
  keyValue(name: string): string | undefined;
  /** Learns a secret met during the run (a key a check created); redacted from then on. */
  add(secret: Secret): void;
}

/** `ordersRead` → `ORDERS_READ`. */
function screamingSnake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

/** The secrets of a profile (and any extra, such as the admin token). */
export function profileSecrets(profile: Profile, extra: readonly Secret[] = []): Secret[] {
  const secrets: Secret[] = [];
  for (const [name, entry] of Object.entries(profile.keys)) {
    const value = typeof entry === 'string' ? entry : entry?.key;
    if (value) secrets.push({ value, name, envVar: `WAYBILL_KEY_${screamingSnake(name)}` });
  }
  if (profile.sandbox) secrets.push({ value: profile.sandbox.token, name: 'sandboxToken', envVar: 'WAYBILL_SANDBOX_TOKEN' });
  return [...secrets, ...extra];
}

/** A redactor over `secrets`; when two names share a value the first one names it. */
export function createRedactor(initial: readonly Secret[]): Redactor {
  const secrets = [...initial];
  const byValue = new Map<string, Secret>();
  let ordered: Secret[] = [];
  const learn = (secret: Secret) => {
    if (secret.value === '' || byValue.has(secret.value)) return;
    byValue.set(secret.value, secret);
    ordered = [...byValue.values()].sort((a, b) => b.value.length - a.value.length);
  };
  for (const secret of secrets) learn(secret);
  const label = (secret: Secret) => `<redacted:${secret.name}>`;

  function segments(text: string): Segment[] {
    let pieces: Segment[] = [{ literal: text }];
    for (const secret of ordered) {
      pieces = pieces.flatMap((piece): Segment[] => {
        if (!('literal' in piece) || !piece.literal.includes(secret.value)) return [piece];
        return piece.literal.split(secret.value).flatMap((literal, index): Segment[] =>
          index === 0 ? [{ literal }] : [{ secret }, { literal }],
        );
      });
    }
    return pieces.filter((piece) => !('literal' in piece) || piece.literal !== '');
  }

  return {
    get secrets() {
      return ordered;
    },
    segments,
    redact: (text) => segments(text).map((piece) => ('literal' in piece ? piece.literal : label(piece.secret))).join(''),
    redactBytes(bytes) {
      let out = bytes;
      for (const secret of ordered) {
        const needle = Buffer.from(secret.value);
        const parts: Buffer[] = [];
        let from = 0;
        for (let at = out.indexOf(needle); at !== -1; at = out.indexOf(needle, from)) {
          parts.push(out.subarray(from, at), Buffer.from(label(secret)));
          from = at + needle.length;
        }
        if (parts.length > 0) out = Buffer.concat([...parts, out.subarray(from)]);
      }
      return out;
    },
    keyValue: (name) => secrets.find((secret) => secret.name === name && secret.envVar.startsWith('WAYBILL_KEY_'))?.value,
    add(secret) {
      secrets.push(secret);
      learn(secret);
    },
  };
}

/** Redacts, in place, a record made before the redactor learned its latest secrets. */
export function redactRecord(record: ExchangeRecord, redactor: Redactor): void {
  const message = (recorded: RecordedMessage | null) => {
    if (recorded === null) return;
    for (const name of Object.keys(recorded.headers)) recorded.headers[name] = redactor.redact(recorded.headers[name]!);
    if (recorded.body !== null && recorded.bodyEncoding === undefined) recorded.body = redactor.redact(recorded.body);
  };
  record.request.url = redactor.redact(record.request.url);
  message(record.request);
  message(record.response);
  record.replay = redactor.redact(record.replay);
  if (record.error !== undefined) record.error = redactor.redact(record.error);
}
