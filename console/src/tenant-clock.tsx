/**
 * The chosen tenant's test clock as the clock and simulation views share it (D52): read once,
 * then ticking in the page while it runs; and the advance buttons, whose answer says how many
 * changes the simulation made in the skipped time.
 */
import { useContext, useEffect, useState } from 'preact/hooks';
import { counted } from '../../cli/counted.ts';
import { seg } from './api.ts';
import { ProblemNotice, TextField, useAction } from './components.tsx';
import { ConsoleContext } from './context.ts';
import type { Clock, ClockAdvanced } from './types.ts';

/** The quick advances: label and ISO 8601 duration. */
const QUICK = [['+1 min', 'PT1M'], ['+1 h', 'PT1H'], ['+25 h', 'PT25H'], ['+7 days', 'P7D']] as const;

/** A time as `2026-11-24 09:15:03Z`: to the second, as a person reads a clock. */
export const clockText = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');

/** A span in words: `+1 h 5 min`, `−30 s`, `0 s`. */
export function spanText(ms: number): string {
  const sign = ms < 0 ? '−' : '+';
  let rest = Math.abs(ms);
  if (rest < 1000) return rest === 0 ? '0 s' : `${sign}${rest} ms`;
  rest = Math.round(rest / 1000);
  const parts: string[] = [];
  for (const [unit, size] of [['d', 86_400], ['h', 3600], ['min', 60], ['s', 1]] as const) {
    if (rest >= size) parts.push(`${Math.floor(rest / size)} ${unit}`);
    rest %= size;
  }
  return `${sign}${parts.join(' ')}`;
}

/** What a clock mode means, in words. */
export const MODE_WORDS: Record<Clock['mode'], string> = { system: 'system time', frozen: 'frozen', offset: 'running at an offset' };

/** The tenant's clock: `clock` as last read, `nowMs` its time now (ticking unless frozen), `show` to take a fresh answer. */
export function useTenantClock() {
  const { api, tenant } = useContext(ConsoleContext);
  const [read, setRead] = useState<{ clock: Clock; atMs: number } | null>(null);
  const [, setTick] = useState(0);
  const load = useAction();
  const show = (clock: Clock) => setRead({ clock, atMs: Date.now() });
  const reload = () => tenant && load.run(() => api.get<Clock>(`/tenants/${seg(tenant.id)}/clock`)).then((clock) => clock && show(clock));
  useEffect(() => {
    setRead(null);
    void reload();
  }, [tenant?.id]);
  const running = read !== null && read.clock.mode !== 'frozen';
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setTick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [running]);
  // The page's own clock measures the time since the answer: the browser's and the server's may differ.
  const nowMs = read === null ? null : Date.parse(read.clock.nowUtc) + (running ? Date.now() - read.atMs : 0);
  return { clock: read?.clock ?? null, nowMs, show, reload, problem: load.problem };
}

/** The tenant's time, large, with its mode. */
export function TenantTime({ clock, nowMs }: { clock: Clock | null; nowMs: number | null }) {
  if (clock === null || nowMs === null) return <p class="muted">Reading the tenant's clock…</p>;
  return (
    <p class="tenant-time">
      <time dateTime={new Date(nowMs).toISOString()}>{clockText(nowMs)}</time> <span class={`status clock-${clock.mode}`}>{MODE_WORDS[clock.mode]}</span>
    </p>
  );
}

/** Advances the tenant's clock by a quick step or an ISO 8601 duration; `onAdvanced` gets the answer. */
export function AdvanceControls({ onAdvanced }: { onAdvanced: (answer: ClockAdvanced) => void }) {
  const { api, tenant } = useContext(ConsoleContext);
  const [by, setBy] = useState('');
  const [last, setLast] = useState<{ by: string; answer: ClockAdvanced } | null>(null);
  const { busy, problem, run } = useAction();
  if (!tenant) return null;
  const advance = async (duration: string) => {
    const said = (a: ClockAdvanced) => `Advanced by ${duration}: the tenant's time is ${clockText(Date.parse(a.clock.nowUtc))}; the simulation made ${a.changes} ${a.changes === 1 ? 'change' : 'changes'}.`;
    const answer = await run(() => api.post<ClockAdvanced>(`/tenants/${seg(tenant.id)}/clock/advance`, { by: duration }), said);
    if (answer) {
      setLast({ by: duration, answer });
      onAdvanced(answer);
    }
  };
  return (
    <div class="advance">
      <div class="buttons" role="group" aria-label="Advance the clock by">
        {QUICK.map(([label, duration]) => (
          <button key={duration} type="button" class="secondary" disabled={busy} onClick={() => advance(duration)}>{label}</button>
        ))}
      </div>
      <form class="row" onSubmit={(event) => {
        event.preventDefault();
        void advance(by.trim());
      }}>
        <TextField label="Advance by (ISO 8601 duration)" name="by" value={by} onValue={setBy} problem={problem} placeholder="P1DT30M" hint="Days, hours, minutes and seconds, at most P366D: PT90S, PT25H, P1DT30M" />
        <div class="field button-field"><button type="submit" disabled={busy || by.trim() === ''}>Advance</button></div>
      </form>
      <ProblemNotice problem={problem} shownFields={['by']} />
      {last ? (
        <p class="result" role="status">
          Advanced by <code>{last.by}</code> to <strong>{clockText(Date.parse(last.answer.clock.nowUtc))}</strong>: the simulation made <strong>{counted(last.answer.changes, 'change')}</strong>.
        </p>
      ) : null}
    </div>
  );
}
