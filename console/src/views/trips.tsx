/**
 * Trips of the chosen tenant: the control plane's list (D87), newest changed first unless
 * flipped, by status, each opening its detail; planning one from the tenant's New and
 * InPlanning orders; opening one by id.
 */
import { useContext, useId, useState } from 'preact/hooks';
import { counted } from '../../../cli/counted.ts';
import { errorsFor, seg } from '../api.ts';
import { FieldErrors, Panel, ProblemNotice, SelectField, Status, TextField, useAction, When } from '../components.tsx';
import { ConsoleContext } from '../context.ts';
import { type Sort, SortHeader, SortToggle, sortWords, usePagedList } from '../paged-list.tsx';
import { type Order, type Trip, type TripDetail, TRIP_STATUSES } from '../types.ts';
import { NeedTenant } from './need-tenant.tsx';
import { TripDetailView } from './trip-detail.tsx';

/** The statuses of an order a trip may be planned from (D41). */
const PLANNABLE = ['New', 'InPlanning'] as const;
/** How many plannable orders the form offers: the ones changed last. */
const OFFERED = 100;

function TripPlanForm() {
  const { api, tenant, openResult } = useContext(ConsoleContext);
  const [picked, setPicked] = useState<string[]>([]);
  const [more, setMore] = useState('');
  const { busy, problem, run } = useAction();
  const plannable = usePagedList<Order>(tenant ? `/tenants/${seg(tenant.id)}/orders` : null, { statuses: PLANNABLE, sort: 'newest', limit: OFFERED });
  const id = useId();
  if (!tenant) return null;
  const pickErrors = errorsFor(problem, 'orderIds');
  return (
    <form onSubmit={async (event) => {
      event.preventDefault();
      const orderIds = [...picked, ...more.split(/[\s,]+/).filter(Boolean)];
      const trip = await run(() => api.post<TripDetail>(`/tenants/${seg(tenant.id)}/trips`, { orderIds }), (t) => `Trip ${t.shortId} planned with ${counted(t.stops.length, 'stop')}; it is ${t.status}.`);
      if (trip) {
        setPicked([]);
        setMore('');
        openResult(`#trips/${trip.id}`);
      }
    }}>
      <fieldset class={`field${pickErrors.length ? ' invalid' : ''}`} aria-describedby={pickErrors.length ? `${id}-errors` : undefined}>
        <legend>Orders, one stop each, in the order picked</legend>
        {plannable.items.length === 0 ? <p class="hint">{plannable.busy ? 'Reading the New and InPlanning orders…' : 'No New or InPlanning order: create some in Orders, or give ids below.'}</p> : plannable.items.map((o) => (
          <label class="check" key={o.id}>
            <input type="checkbox" checked={picked.includes(o.id)} onChange={(event) => setPicked((now) => (event.currentTarget.checked ? [...now, o.id] : now.filter((p) => p !== o.id)))} />
            {o.externalId ?? o.shortId} <span class="muted">({o.status}, {o.type})</span>
          </label>
        ))}
        {plannable.more ? <p class="hint">The {OFFERED} changed last; give others by id below.</p> : null}
        <ProblemNotice problem={plannable.problem} />
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

/** A table of trips, each opening its detail. */
function TripTable({ trips, sort }: { trips: Trip[]; sort: Sort }) {
  return (
    <div class="table-wrap">
      <table>
        <caption class="sr-only">Trips, {sortWords(sort)}</caption>
        <thead><tr><th scope="col">Trip</th><th scope="col">Status</th><th scope="col">Stops</th><th scope="col">Planned</th><SortHeader sort={sort} /></tr></thead>
        <tbody>
          {trips.map((t) => (
            <tr key={t.id}>
              <th scope="row"><a class="mono nowrap" href={`#trips/${t.id}`}>{t.shortId}</a></th>
              <td><Status value={t.status} /></td>
              <td>{t.stopCount}</td>
              <td><When utc={t.plannedAtUtc} /></td>
              <td><When utc={t.updatedAtUtc} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The tenant's trips, 25 a page. */
function TripList() {
  const { tenant } = useContext(ConsoleContext);
  const [status, setStatus] = useState('');
  const [sort, setSort] = useState<Sort>('newest');
  const list = usePagedList<Trip>(tenant ? `/tenants/${seg(tenant.id)}/trips` : null, { statuses: status ? [status] : [], sort, limit: 25 });
  return (
    <>
      <div class="row filters">
        <SelectField label="Status" name="status" value={status} options={TRIP_STATUSES} onValue={setStatus} blank="Any status" />
        <SortToggle sort={sort} onSort={setSort} />
      </div>
      <ProblemNotice problem={list.problem} />
      {list.items.length === 0 && !list.busy ? <p class="empty">No trips{status ? ` in ${status}` : ''}.</p> : <TripTable trips={list.items} sort={sort} />}
      {list.more ? <button type="button" class="secondary" disabled={list.busy} onClick={list.more}>More trips</button> : null}
    </>
  );
}

/** The trips view: `param` is a trip id to show. */
export function TripsView({ param }: { param: string }) {
  const { tenant } = useContext(ConsoleContext);
  if (!tenant) return <NeedTenant />;
  if (param) return <TripDetailView tripId={param} />;
  return (
    <>
      <Panel title="All trips">
        <TripList />
        <TripOpener />
      </Panel>
      <Panel title="Plan a trip"><TripPlanForm /></Panel>
    </>
  );
}
