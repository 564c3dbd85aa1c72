/**
 * The chosen tenant's test clock (D52): its time (ticking while it runs), mode and offset;
 * freeze it, run it from a time, release it to system time, advance it. A move backwards is
 * the server's 409, shown with its detail.
 */
import { useContext, useState } from 'preact/hooks';
import { type Problem, seg } from '../api.ts';
import { Panel, ProblemNotice, SelectField, TextField, useAction } from '../components.tsx';
import { ConsoleContext } from '../context.ts';
import { AdvanceControls, clockText, MODE_WORDS, spanText, TenantTime, useTenantClock } from '../tenant-clock.tsx';
import type { Clock, ClockSetting } from '../types.ts';
import { NeedTenant } from './need-tenant.tsx';


/** The typed time in the contract's form (`2026-12-01T09:00:00.000Z`) when it reads as one; else as typed, for the server to refuse by name. */
function utcOf(text: string): string | undefined {
  const typed = text.trim();
  if (typed === '') return undefined;
  const ms = /(Z|[+-]\d\d:?\d\d)$/i.test(typed) ? Date.parse(typed) : Number.NaN;
  return Number.isNaN(ms) ? typed : new Date(ms).toISOString();
}

/** The modes a time is set with (`system` has a button of its own). */
const SET_MODES: readonly ClockSetting['mode'][] = ['frozen', 'offset'];
const SET_MODE_WORDS: Record<string, string> = { frozen: 'Frozen at that time', offset: 'Running from that time' };

function ClockSetForm({ onSet, problem }: { onSet: (setting: ClockSetting) => Promise<unknown>; problem: Problem | null }) {
  const [mode, setMode] = useState<string>('frozen');
  const [atUtc, setAtUtc] = useState('');
  return (
    <form onSubmit={(event) => {
      event.preventDefault();
      void onSet({ mode: mode as ClockSetting['mode'], atUtc: utcOf(atUtc) });
    }}>
      <div class="row">
        <TextField label="Time (UTC)" name="atUtc" value={atUtc} onValue={setAtUtc} problem={problem} placeholder="2026-12-01T09:00:00Z" hint="With Z or an offset; empty: the tenant's time now. Never before it: stamps only move forward (D7)." />
        <SelectField label="Then" name="mode" value={mode} options={SET_MODES} onValue={setMode} problem={problem} labelOf={(m) => SET_MODE_WORDS[m] ?? m} />
        <div class="field button-field"><button type="submit">Set clock</button></div>
      </div>
    </form>
  );
}

/** The clock view. */
export function ClockView(_: { param: string }) {
  const { api, tenant } = useContext(ConsoleContext);
  const { clock, nowMs, show, problem: readProblem } = useTenantClock();
  const set = useAction();
  if (!tenant) return <NeedTenant />;
  const setClock = (setting: ClockSetting) =>
    set.run(() => api.put<Clock>(`/tenants/${seg(tenant.id)}/clock`, setting), (c) => `The clock is ${MODE_WORDS[c.mode]}: ${clockText(Date.parse(c.nowUtc))}.`).then((c) => c && show(c));
  return (
    <>
      <Panel title={`Tenant time of ${tenant.name}`}>
        <TenantTime clock={clock} nowMs={nowMs} />
        {clock ? (
          <dl class="facts">
            <dt>Offset</dt><dd>{clock.mode === 'system' ? '0 s: the wall clock' : `${spanText(clock.offsetMs)} from the wall clock${clock.mode === 'frozen' ? ' when read (a frozen clock falls behind)' : ''}`}</dd>
          </dl>
        ) : null}
        <ProblemNotice problem={readProblem} />
        <div class="buttons">
          <button type="button" disabled={set.busy || clock?.mode === 'frozen'} onClick={() => setClock({ mode: 'frozen' })}>Freeze now</button>
          <button type="button" class="secondary" disabled={set.busy || clock?.mode !== 'frozen'} onClick={() => setClock({ mode: 'offset' })}>Run from here</button>
          <button type="button" class="secondary" disabled={set.busy || clock?.mode === 'system'} onClick={() => setClock({ mode: 'system' })}>Release to system time</button>
        </div>
        <h3>Freeze or run from a given time</h3>
        <ClockSetForm onSet={setClock} problem={set.problem} />
        <ProblemNotice problem={set.problem} shownFields={['atUtc', 'mode']} />
        <p class="hint">Every stamp, <code>since</code> comparison, rate-limit refill and 24-hour Idempotency-Key window of this tenant reads this clock; the request log keeps wall-clock times.</p>
      </Panel>
      <Panel title="Advance">
        <AdvanceControls onAdvanced={(answer) => show(answer.clock)} />
      </Panel>
    </>
  );
}
