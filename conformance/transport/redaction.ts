/**
 * Keeps secrets out of everything the suite writes: every profile key, the sandbox token and the
 * admin token are replaced by `<redacted:name>` in records and findings, and by a
 * `$WAYBILL_…` environment variable in replay lines.
 */
import type { ExchangeRecord, RecordedMessage } from '../engine/types/exchange.ts';
import type { Profile } from '../engine/types/profile.ts';

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
  /** A URL with secrets redacted in its path, query and fragment; its origin stays readable. */
  redactUrl(url: string): string;
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

/** True for the characters a token is made of: a secret next to one of them is part of a longer word, not the secret. */
function isTokenChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 45 || code === 95;
}

/**
 * Where `needle` stands in `haystack` as a whole token: not preceded or followed by a letter,
 * digit, `-` or `_`. A short secret (an admin token `t`) is then not found inside `http` or
 * `status`, and long ones are found wherever they are used (headers, JSON, query strings).
 */
function tokenOccurrences(haystack: string | Buffer, needle: string | Buffer, codeAt: (index: number) => number): number[] {
  const found: number[] = [];
  const search = (from: number) => (typeof haystack === 'string' ? haystack.indexOf(needle as string, from) : haystack.indexOf(needle, from));
  for (let at = search(0); at !== -1; at = search(at + 1)) {
    const end = at + needle.length;
    if ((at === 0 || !isTokenChar(codeAt(at - 1))) && (end >= haystack.length || !isTokenChar(codeAt(end)))) {
      if (found.length === 0 || at >= found[found.length - 1]! + needle.length) found.push(at);
    }
  }
  return found;
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
        if (!('literal' in piece)) return [piece];
        const at = tokenOccurrences(piece.literal, secret.value, (i) => piece.literal.charCodeAt(i));
        if (at.length === 0) return [piece];
        const out: Segment[] = [];
        let from = 0;
        for (const index of at) {
          out.push({ literal: piece.literal.slice(from, index) }, { secret });
          from = index + secret.value.length;
        }
        out.push({ literal: piece.literal.slice(from) });
        return out;
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
        const current = out;
        const at = tokenOccurrences(current, needle, (i) => current[i] ?? 0);
        if (at.length === 0) continue;
        const parts: Buffer[] = [];
        let from = 0;
        for (const index of at) {
          parts.push(current.subarray(from, index), Buffer.from(label(secret)));
          from = index + needle.length;
        }
        out = Buffer.concat([...parts, current.subarray(from)]);
      }
      return out;
    },
    redactUrl(url) {
      try {
        const parsed = new URL(url);
        return `${parsed.origin}${segments(`${parsed.pathname}${parsed.search}${parsed.hash}`).map((piece) => ('literal' in piece ? piece.literal : label(piece.secret))).join('')}`;
      } catch {
        return this.redact(url);
      }
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
  record.request.url = redactor.redactUrl(record.request.url);
  message(record.request);
  message(record.response);
  record.replay = redactor.redact(record.replay);
  if (record.error !== undefined) record.error = redactor.redact(record.error);
}
