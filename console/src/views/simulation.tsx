/**
 * The chosen tenant's living feed (D53, D54, D93): whether it runs, its pace, seed, unknown
 * statuses and members, the changes so far and the next one in tenant time; start, change and stop it;
 * and the tenant's clock beside it, since the clock is what makes it move.
 */
import { useContext, useEffect, useState } from 'preact/hooks';
import { counted } from '../../../cli/counted.ts';
import { seg } from '../api.ts';
import { numberOr, Panel, ProblemNotice, TextField, useAction, When } from '../components.tsx';
import { ConsoleContext } from '../context.ts';
import { AdvanceControls, TenantTime, useTenantClock } from '../tenant-clock.tsx';
import type { Simulation } from '../types.ts';
import { NeedTenant } from './need-tenant.tsx';

/** How often a running simulation under a running clock is read again. */
const REFRESH_MS = 3000;


function SimulationFacts({ simulation }: { simulation: Simulation }) {
  return (
    <dl class="facts">
      <dt>State</dt><dd><span class={`status status-${simulation.running ? 'active' : 'stopped'}`}>{simulation.running ? 'Running' : 'Stopped'}</span></dd>
      <dt>Pace</dt><dd>{simulation.changesPerMinute === null ? <span class="muted">never started</span> : `${counted(simulation.changesPerMinute, 'change')} per minute of tenant time, on average`}</dd>
      <dt>Seed</dt><dd class="mono">{simulation.seed ?? '—'}</dd>
      <dt>Unknown statuses</dt><dd>{simulation.unknownStatuses ? 'on: some orders pass through OnHold, a status the contract does not list (D54)' : 'off'}</dd>
      <dt>Unknown members</dt><dd>{simulation.unknownMembers ? 'on: the orders it takes in carry deliveryWindow, a member the contract does not list yet (D93)' : 'off'}</dd>
      <dt>Unknown trip statuses</dt><dd>{simulation.unknownTripStatuses ? 'on: some trips pass through OnHold, a trip status the contract does not list (D93)' : 'off'}</dd>
      <dt>Started</dt><dd><When utc={simulation.startedAtUtc} /> {simulation.startedAtUtc ? <span class="muted">tenant time</span> : null}</dd>
      <dt>Changes so far</dt><dd><strong>{simulation.changes}</strong></dd>
      <dt>Next change</dt><dd><When utc={simulation.nextChangeAtUtc} /> {simulation.nextChangeAtUtc ? <span class="muted">tenant time</span> : null}</dd>
    </dl>
  );
}

function SimulationForm({ simulation, onAnswer }: { simulation: Simulation; onAnswer: (simulation: Simulation) => void }) {
  const { api, tenant } = useContext(ConsoleContext);
  const [pace, setPace] = useState(() => String(simulation.changesPerMinute ?? 10));
  const [seed, setSeed] = useState(() => (simulation.seed === null ? '' : String(simulation.seed)));
  const [unknownStatuses, setUnknownStatuses] = useState(simulation.unknownStatuses);
  const [unknownMembers, setUnknownMembers] = useState(simulation.unknownMembers);
  const [unknownTripStatuses, setUnknownTripStatuses] = useState(simulation.unknownTripStatuses);
  const { busy, problem, run } = useAction();
  if (!tenant) return null;
  const running = simulation.running;
  return (
    <form onSubmit={async (event) => {
      event.preventDefault();
      const body = { changesPerMinute: numberOr(pace), seed: seed.trim() === '' ? undefined : numberOr(seed), unknownStatuses, unknownMembers, unknownTripStatuses };
      const answer = await run(() => api.put<Simulation>(`/tenants/${seg(tenant.id)}/simulation`, body), (s) => `The simulation runs at ${counted(s.changesPerMinute ?? 0, 'change')} per minute, seed ${s.seed}.`);
      if (answer) onAnswer(answer);
    }}>
      <div class="row">
        <TextField label="Changes per minute" name="changesPerMinute" value={pace} onValue={setPace} problem={problem} type="number" hint="Of tenant time, on average; more than 0, at most 600" />
        <TextField label="Seed" name="seed" value={seed} onValue={setSeed} problem={problem} inputMode="numeric" hint="Same seed, clock and data: the same changes. Empty: a random one, shown above" />
      </div>
      <label class="check"><input type="checkbox" name="unknownStatuses" checked={unknownStatuses} onChange={(event) => setUnknownStatuses(event.currentTarget.checked)} /> Unknown order statuses (some orders pass through OnHold)</label>
      <label class="check"><input type="checkbox" name="unknownMembers" checked={unknownMembers} onChange={(event) => setUnknownMembers(event.currentTarget.checked)} /> Unknown members (its orders carry deliveryWindow)</label>
      <label class="check"><input type="checkbox" name="unknownTripStatuses" checked={unknownTripStatuses} onChange={(event) => setUnknownTripStatuses(event.currentTarget.checked)} /> Unknown trip statuses (some trips pass through OnHold)</label>
      <div class="buttons">
        <button type="submit" disabled={busy}>{running ? 'Change simulation' : 'Start simulation'}</button>
      </div>
      <ProblemNotice problem={problem} shownFields={['changesPerMinute', 'seed']} />
    </form>
  );
}

/** The simulation view. */
export function SimulationView(_: { param: string }) {
  const { api, tenant } = useContext(ConsoleContext);
  const [simulation, setSimulation] = useState<Simulation | null>(null);
  const { clock, nowMs, show } = useTenantClock();
  const read = useAction();
  const stop = useAction();
  const path = tenant ? `/tenants/${seg(tenant.id)}/simulation` : '';
  const load = () => tenant && read.run(() => api.get<Simulation>(path)).then((s) => s && setSimulation(s));
  useEffect(() => {
    setSimulation(null);
    void load();
  }, [tenant?.id]);
  const moving = simulation?.running === true && clock !== null && clock.mode !== 'frozen';
  useEffect(() => {
    if (!moving) return;
    const timer = setInterval(() => api.get<Simulation>(path).then(setSimulation, () => undefined), REFRESH_MS);
    return () => clearInterval(timer);
  }, [moving, path]);
  if (!tenant) return <NeedTenant />;
  return (
    <>
      <Panel title={`Living feed of ${tenant.name}`}>
        {simulation ? <SimulationFacts simulation={simulation} /> : null}
        <ProblemNotice problem={read.problem ?? stop.problem} />
        <div class="buttons">
          <button type="button" class="secondary" disabled={read.busy} onClick={() => load()}>Refresh</button>
          <button type="button" class="danger" disabled={stop.busy || !simulation?.running}
            onClick={() => stop.run(() => api.del<Simulation>(path), () => 'The simulation is stopped.').then((s) => s && setSimulation(s))}>Stop simulation</button>
        </div>
        {tenant.state !== 'Active' ? <p class="problem">{tenant.name} is {tenant.state}: the simulation writes only while its tenant is Active.</p> : null}
      </Panel>
      <Panel title={simulation?.running ? 'Change the simulation' : 'Start the simulation'}>
        {simulation ? <SimulationForm key={tenant.id} simulation={simulation} onAnswer={setSimulation} /> : <p class="muted">Reading the simulation…</p>}
      </Panel>
      <Panel title="Tenant clock">
        <TenantTime clock={clock} nowMs={nowMs} />
        <p class="hint">The simulation runs on tenant time: while the clock runs it makes changes as they fall due; a frozen clock makes none until it is advanced, and an advance makes the skipped time's changes at once. Freeze, run or release the clock in the <a href="#clock">Clock</a> view.</p>
        <AdvanceControls onAdvanced={(answer) => {
          show(answer.clock);
          void load();
        }} />
      </Panel>
    </>
  );
}
