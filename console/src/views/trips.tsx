/** Trips: plan one from orders, open one, and its detail with start, stop outcomes, complete and cancel. */
import { useContext, useId, useState } from 'preact/hooks';
import { errorsFor, seg } from '../api.ts';
import { FieldErrors, Panel, ProblemNotice, TextField, useAction } from '../components.tsx';
import { ConsoleContext } from '../context.ts';
import type { OrderDetail, TripDetail } from '../types.ts';
import { NeedTenant } from './need-tenant.tsx';
import { TripDetailView } from './trip-detail.tsx';

function TripPlanForm() {
  const { api, tenant, recentOrders, rememberTrip, rememberOrders, openResult } = useContext(ConsoleContext);
  const [picked, setPicked] = useState<string[]>([]);
  const [more, setMore] = useState('');
  const { busy, problem, run } = useAction();
  const id = useId();
  if (!tenant) return null;
  const plannable = recentOrders.filter((o) => o.tenantId === tenant.id && (o.status === 'New' || o.status === 'InPlanning'));
  const pickErrors = errorsFor(problem, 'orderIds');
  return (
    <form onSubmit={async (event) => {
      event.preventDefault();
      const orderIds = [...picked, ...more.split(/[\s,]+/).filter(Boolean)];
      const trip = await run(() => api.post<TripDetail>(`/tenants/${seg(tenant.id)}/trips`, { orderIds }), (t) => `Trip ${t.shortId} planned with ${t.stops.length} stops; it is ${t.status}.`);
      if (trip) {
        rememberTrip(trip.id);
        const orders = await Promise.all(trip.stops.map((s) => api.get<OrderDetail>(`/tenants/${seg(tenant.id)}/orders/${seg(s.orderId)}`)));
        rememberOrders(orders);
        setPicked([]);
        setMore('');
        openResult(`#trips/${trip.id}`);
      }
    }}>
      <fieldset class={`field${pickErrors.length ? ' invalid' : ''}`} aria-describedby={pickErrors.length ? `${id}-errors` : undefined}>
        <legend>Orders, one stop each, in the order picked</legend>
        {plannable.length === 0 ? <p class="hint">No New or InPlanning order seen in this tab: create or list some in Orders, or give ids below.</p> : plannable.map((o) => (
          <label class="check" key={o.id}>
            <input type="checkbox" checked={picked.includes(o.id)} onChange={(event) => setPicked((now) => (event.currentTarget.checked ? [...now, o.id] : now.filter((p) => p !== o.id)))} />
            {o.externalId ?? o.shortId} <span class="muted">({o.status}, {o.type})</span>
          </label>
        ))}
        <FieldErrors id={`${id}-errors`} errors={pickErrors} />
      </fieldset>
      <TextField label="More order ids" name="moreOrderIds" value={more} onValue={setMore} hint="Order ids separated by spaces or new lines" multiline rows={2} />
      <button type="submit" disabled={busy}>Plan trip</button>
      <ProblemNotice problem={problem} shownFields={['orderIds']} />
    </form>
  );
}

function TripOpener() {
  const [tripId, setTripId] = useState('');
  return (
    <form class="row" onSubmit={(event) => {
      event.preventDefault();
      if (tripId.trim()) location.hash = `#trips/${tripId.trim()}`;
    }}>
      <TextField label="Trip id" name="tripId" value={tripId} onValue={setTripId} />
      <div class="field button-field"><button type="submit">Open trip</button></div>
    </form>
  );
}

/** The trips view: `param` is a trip id to show. */
export function TripsView({ param }: { param: string }) {
  const { tenant, recentTrips } = useContext(ConsoleContext);
  if (!tenant) return <NeedTenant />;
  if (param) return <TripDetailView tripId={param} />;
  return (
    <>
      <Panel title="Plan a trip"><TripPlanForm /></Panel>
      <Panel title="Open a trip">
        <TripOpener />
        {recentTrips.length ? (
          <>
            <h3>Trips of this tab</h3>
            <ul>{recentTrips.map((t) => <li key={t}><a class="mono" href={`#trips/${t}`}>{t}</a></li>)}</ul>
          </>
        ) : <p class="hint">The control plane has no trip list; the trip feed (Feed view) lists them as a key sees them.</p>}
      </Panel>
    </>
  );
}
