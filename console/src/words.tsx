/**
 * What the console says in words where the API answers data: a stop line's outcome
 * ("2 delivered, 1 lost") and an order's history entry ("New → Planned, trip 9d3b2c1e").
 * People count from 1; the API's stop and line indexes count from 0.
 */
import { Status } from './components.tsx';
import type { HistoryEntry } from './types.ts';

/** An index of the API (from 0) as a person counts it (from 1). */
export const counted = (index: number): number => index + 1;

/** The quantities of a line outcome, in the order people read them, with their words. */
const QUANTITIES: readonly (readonly [string, string])[] = [
  ['delivered', 'delivered'], ['returned', 'returned'], ['rejected', 'rejected'], ['lost', 'lost'],
  ['collected', 'collected'], ['notCollected', 'not collected'],
];

/** The words of a quantity field (`notCollected` → "not collected"). */
export const quantityWord = (name: string): string => QUANTITIES.find(([field]) => field === name)?.[1] ?? name;
/** A quantity field's label ("Not collected"). */
export const quantityLabel = (name: string): string => quantityWord(name).replace(/^./, (first) => first.toUpperCase());

/** A value of a history entry or an outcome as text: no JSON braces for a person to read. */
function plain(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (Array.isArray(value)) return value.map(plain).join(', ');
  if (typeof value === 'object') return Object.entries(value).map(([name, inner]) => `${name} ${plain(inner)}`).join(', ');
  return String(value);
}

/**
 * A line outcome in words: its quantities that are not 0 ("2 delivered, 1 lost"), then its
 * reason unless it is `saidReason` (the stop's, said once beside the stop); a field the
 * console does not know is named with its value.
 */
export function outcomeWords(outcome: Record<string, unknown>, saidReason: unknown = null): string {
  const known = new Set(['line', 'reasonCode', ...QUANTITIES.map(([field]) => field)]);
  const amounts = QUANTITIES.filter(([field]) => typeof outcome[field] === 'number' && outcome[field] !== 0).map(([field, word]) => `${String(outcome[field])} ${word}`);
  const others = Object.entries(outcome).filter(([name]) => !known.has(name)).map(([name, value]) => `${name} ${plain(value)}`);
  const reason = typeof outcome['reasonCode'] === 'string' && outcome['reasonCode'] !== saidReason ? [`reason ${outcome['reasonCode']}`] : [];
  return [amounts.join(', ') || 'nothing counted', ...others, ...reason].join('; ');
}

/** A trip named by the start of its id, leading to it. */
const TripLink = ({ tripId }: { tripId: unknown }) =>
  typeof tripId === 'string' ? <>, trip <a class="mono nowrap" href={`#trips/${tripId}`} title={tripId}>{tripId.slice(0, 8)}</a></> : null;

const Reason = ({ code }: { code: unknown }) => (typeof code === 'string' && code ? <>, reason <code>{code}</code></> : null);

const Move = ({ from, to }: { from: unknown; to: unknown }) => <><Status value={plain(from)} /> → <Status value={plain(to)} /></>;

/** The outcome lines of a history entry, each "line 1: 2 delivered"; the stop's own reason is said once, not per line. */
function outcomeLines(lines: unknown, stopReason: unknown): string {
  if (!Array.isArray(lines)) return '';
  return lines.map((line: Record<string, unknown>) => {
    const { line: index, ...rest } = line;
    return `line ${typeof index === 'number' ? counted(index) : plain(index)}: ${outcomeWords(rest, stopReason)}`;
  }).join('; ');
}

/** What a history entry says, by its kind; a kind the console does not know shows its fields as words. */
export function HistoryWords({ entry }: { entry: HistoryEntry }) {
  const data = entry.data;
  const status = plain(data['status']);
  switch (entry.kind) {
    case 'created':
      return <><strong>Created</strong> in <Status value={status} /></>;
    case 'status':
      return <><strong>Status</strong> <Move from={data['from']} to={data['to']} /><TripLink tripId={data['tripId']} /><Reason code={data['reasonCode']} /></>;
    case 'outcome': {
      const lines = outcomeLines(data['lines'], data['reasonCode']);
      return (
        <>
          <strong>Stop {typeof data['stop'] === 'number' ? counted(data['stop']) : plain(data['stop'])}</strong> <Status value={status} />
          <TripLink tripId={data['tripId']} /><Reason code={data['reasonCode']} />{lines ? `: ${lines}` : ''}
        </>
      );
    }
    case 'payment':
      return <><strong>Payment</strong> of {plain(data['amount'])} {plain(data['currency'])}, id <span class="mono">{plain(data['paymentId'])}</span></>;
    case 'cancel':
      return <><strong>Cancelled</strong> <Move from={data['from']} to={data['to']} /><Reason code={data['reason']} /></>;
    case 'archive':
      return <><strong>Archived</strong> in <Status value={status} /></>;
    case 'restore':
      return <><strong>Restored</strong> in <Status value={status} /></>;
    case 'miniStatus':
      return <><strong>Mini-status</strong> set to {plain(data['miniStatus'])} (in <Status value={status} />)</>;
    default:
      return <><strong>{entry.kind}</strong> {plain(data)}</>;
  }
}
