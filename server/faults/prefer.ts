/**
 * `Prefer: fault=…` and `Prefer: latency=…` (D51), and `Prefer: problem=…` (D95): a fault,
 * or one of the problems its operation lists, for one call, asked for by the call itself, in
 * RFC 7240's syntax — preferences separated by commas, each with parameters after `;`, names
 * without regard to case, values tokens or quoted strings. Other preferences are ignored; a
 * `fault`, `problem` or `latency` preference this server cannot honour is an error whose
 * message names what is wrong.
 */
import type { CatalogCode } from '../../spec/load.ts';
import type { FaultKind, FaultWhen, FaultRule } from './store.ts';
import { needsAnswer } from './kinds.ts';

/** The longest wait a `latency` asks for, in ms (as a rule's). */
export const MAX_LATENCY_MS = 60_000;

/** The fault a request asked for itself. */
export interface PreferredFault {
  fault: Exclude<FaultKind, 'latency'>;
  status: FaultRule['status'];
  when: FaultWhen | null;
}

/** The wait a request asked for itself. */
export interface PreferredLatency {
  min: number;
  max: number;
  when: FaultWhen | null;
}

/** The problem a request asked for itself (D95): always answered before the request runs. */
export interface PreferredProblem {
  code: CatalogCode;
  when: 'before' | null;
}

/** What a Prefer header asks of the fault injection; null members were not asked for. */
export interface Preferred {
  fault: PreferredFault | null;
  problem: PreferredProblem | null;
  latency: PreferredLatency | null;
}

/** The operation a call is of, as `Prefer` needs it: whether it writes, and the codes it lists. */
export interface PreferTarget {
  operationId: string;
  write: boolean;
  /** The codes of its `x-error-codes`: the problems a call can ask for (D95). */
  errorCodes: readonly CatalogCode[];
}

/** The preference that forces `code` (D95), as `/docs` and the guides show it. */
export function preferProblemLine(code: string): string {
  return `Prefer: problem=${code}`;
}

/** Why `operationId` cannot answer `code`, with the codes it can (D95): a `Prefer` and a fault rule say the same. */
export function unlistedProblem(code: string, target: Pick<PreferTarget, 'operationId' | 'errorCodes'>): string {
  return `${target.operationId} cannot answer ${code}; it answers ${target.errorCodes.join(', ')}.`;
}

/** A `fault` or `latency` preference this server cannot honour. */
export class PreferError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PreferError';
  }
}

interface Preference {
  name: string;
  value: string | null;
  parameters: Map<string, string | null>;
}

/** `text` split at `separator`, except inside a quoted string. */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted && char === '\\' && i + 1 < text.length) {
      current += char + text[i + 1]!;
      i += 1;
      continue;
    }
    if (char === '"') quoted = !quoted;
    if (char === separator && !quoted) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts;
}

/** `name[=value]` with the value unquoted; null for an empty element. */
function nameAndValue(text: string): { name: string; value: string | null } | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const equals = trimmed.indexOf('=');
  if (equals < 0) return { name: trimmed.toLowerCase(), value: null };
  const raw = trimmed.slice(equals + 1).trim();
  const value = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
  return { name: trimmed.slice(0, equals).trim().toLowerCase(), value };
}

/** The preferences of a Prefer header, first instance of each name only (RFC 7240 §2). */
function preferencesOf(header: string): Map<string, Preference> {
  const preferences = new Map<string, Preference>();
  for (const element of splitOutsideQuotes(header, ',')) {
    const [head = '', ...rest] = splitOutsideQuotes(element, ';');
    const preference = nameAndValue(head);
    if (preference === null || preferences.has(preference.name)) continue;
    const parameters = new Map<string, string | null>();
    for (const part of rest) {
      const parameter = nameAndValue(part);
      if (parameter !== null && !parameters.has(parameter.name)) parameters.set(parameter.name, parameter.value);
    }
    preferences.set(preference.name, { ...preference, parameters });
  }
  return preferences;
}

const FAULTS: Record<string, Pick<PreferredFault, 'fault' | 'status'>> = {
  reset: { fault: 'reset', status: null },
  empty: { fault: 'empty', status: null },
  malformed: { fault: 'malformed', status: null },
  stall: { fault: 'stall', status: null },
  '429': { fault: 'status', status: 429 },
  '500': { fault: 'status', status: 500 },
  '503': { fault: 'status', status: 503 },
};

/** The `when` parameter of a preference: null on a read, else `before` unless the fault needs the answer. */
function whenOf(preference: Preference, write: boolean, needsAnswer: boolean): FaultWhen | null {
  const when = preference.parameters.get('when');
  if (when === undefined) return write ? (needsAnswer ? 'after' : 'before') : null;
  if (!write) throw new PreferError(`${preference.name}: when applies to the writes only; this call is a read, with no effect to fail before or after.`);
  if (when !== 'before' && when !== 'after') throw new PreferError(`${preference.name}: when must be before or after.`);
  if (when === 'before' && needsAnswer) throw new PreferError(`${preference.name}: a ${preference.value} fault needs the answer, so it comes after the effect; leave out when or say when=after.`);
  return when;
}

/** The wait of `latency=300` or `latency=100-900`. */
function latencyOf(preference: Preference, write: boolean): PreferredLatency {
  const match = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(preference.value ?? '');
  const min = Number(match?.[1]);
  const max = match?.[2] === undefined ? min : Number(match[2]);
  if (match === null || max > MAX_LATENCY_MS || min > max) {
    throw new PreferError(`latency must be a wait in ms (latency=300) or a range (latency=100-900), at most ${MAX_LATENCY_MS}, the lower bound first.`);
  }
  return { min, max, when: whenOf(preference, write, false) };
}

// requirement: D95
/** The problem of `problem=<code>`: a code the operation lists, answered before the request runs (D95). */
function problemOf(preference: Preference, target: PreferTarget): PreferredProblem {
  const code = preference.value ?? '';
  if (!(target.errorCodes as readonly string[]).includes(code)) throw new PreferError(unlistedProblem(code === '' ? 'an empty code' : code, target));
  const when = whenOf(preference, target.write, false);
  if (when === 'after') {
    throw new PreferError('A problem is answered as the sandbox refuses a request, before it runs and with nothing written; leave out when, or ask for fault=429, 500 or 503 with when=after for an answer lost after the write.');
  }
  return { code: code as CatalogCode, when };
}

/** What `header` asks of a call of `target`; throws PreferError for a preference it cannot honour. */
export function parsePrefer(header: string, target: PreferTarget): Preferred | null {
  const { write } = target;
  const preferences = preferencesOf(header);
  const fault = preferences.get('fault');
  const problem = preferences.get('problem');
  const latency = preferences.get('latency');
  if (fault === undefined && problem === undefined && latency === undefined) return null;
  if (fault !== undefined && problem !== undefined) throw new PreferError('fault and problem both decide the answer; ask for one of them.');
  let preferredFault: PreferredFault | null = null;
  if (fault !== undefined) {
    const kind = FAULTS[(fault.value ?? '').toLowerCase()];
    if (kind === undefined) throw new PreferError('fault must be reset, empty, malformed, stall, 429, 500 or 503.');
    preferredFault = { ...kind, when: whenOf(fault, write, needsAnswer(kind.fault)) };
  }
  return {
    fault: preferredFault,
    problem: problem === undefined ? null : problemOf(problem, target),
    latency: latency === undefined ? null : latencyOf(latency, write),
  };
}
