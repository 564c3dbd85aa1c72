/** One trip with its stops: start, record a stop's outcome, complete, cancel; the server's rules and errors. */
import { useContext, useEffect, useState } from 'preact/hooks';
import { seg } from '../api.ts';
import { Panel, ProblemNotice, SelectField, Status, TextField, useAction, When } from '../components.tsx';
import { ConsoleContext } from '../context.ts';
import { type LineOutcome, type OrderDetail, type Stop, STOP_OUTCOME_STATUSES, type TripDetail, type Vocabulary } from '../types.ts';
import { counted, outcomeWords, quantityLabel } from '../words.tsx';

/** The quantities of a line's outcome, by its vocabulary. */
const QUANTITIES = { delivery: ['delivered', 'returned', 'rejected', 'lost'], collection: ['collected', 'notCollected'] } as const satisfies Record<Vocabulary, readonly Exclude<keyof LineOutcome, 'reasonCode'>[]>;

function StopOutcomeForm({ trip, stop, onDone }: { trip: TripDetail; stop: Stop; onDone: (trip: TripDetail) => void }) {
  const { api, tenant } = useContext(ConsoleContext);
  const [status, setStatus] = useState('Completed');
  const [reasonCode, setReasonCode] = useState('');
  const [lines, setLines] = useState<Record<string, string>[]>(() =>
    stop.lines.map((l) => ({ [QUANTITIES[l.vocabulary][0]]: String(l.quantity), reasonCode: '' })),
  );
  const { busy, problem, run } = useAction();
  if (!tenant) return null;
  const setLine = (i: number, name: string, value: string) => setLines((now) => now.map((l, j) => (j === i ? { ...l, [name]: value } : l)));
  const number = counted(stop.index);
  return (
    <form class="outcome" aria-label={`Outcome of stop ${number}`} onSubmit={async (event) => {
      event.preventDefault();
      const body = status === 'Failed'
        ? { status, reasonCode: reasonCode || undefined }
        : {
            status,
            lines: stop.lines.map((l, i) => {
              const entry: Record<string, unknown> = { line: l.line };
              for (const name of QUANTITIES[l.vocabulary]) {
                const text = (lines[i]?.[name] ?? '').trim();
                if (text !== '') entry[name] = Number.isFinite(Number(text)) ? Number(text) : text;
              }
              if (lines[i]?.['reasonCode']) entry['reasonCode'] = lines[i]!['reasonCode'];
              return entry;
            }),
          };
      const changed = await run(() => api.post<TripDetail>(`/tenants/${seg(tenant.id)}/trips/${seg(trip.id)}/stops/${stop.index}/outcome`, body), () => `Stop ${number} recorded as ${status}.`);
      if (changed) onDone(changed);
    }}>
      <div class="row">
        <SelectField label={`Stop ${number} outcome`} name="status" value={status} options={STOP_OUTCOME_STATUSES} onValue={setStatus} problem={problem} />
        {status === 'Failed' ? <TextField label="Reason code" name="reasonCode" value={reasonCode} onValue={setReasonCode} problem={problem} placeholder="CustomerAbsent" /> : null}
      </div>
      {status === 'Completed' ? stop.lines.map((l, i) => (
        <fieldset class="line" key={l.lineId}>
          <legend>Line {counted(l.line)}: {l.role}, quantity {l.quantity} ({l.vocabulary})</legend>
          <div class="row">
            {QUANTITIES[l.vocabulary].map((name) => (
              <TextField key={name} label={quantityLabel(name)} name={`lines[${i}].${name}`} value={lines[i]?.[name] ?? ''} onValue={(v) => setLine(i, name, v)} problem={problem} inputMode="numeric" />
            ))}
            <TextField label="Reason code" name={`lines[${i}].reasonCode`} value={lines[i]?.['reasonCode'] ?? ''} onValue={(v) => setLine(i, 'reasonCode', v)} problem={problem} />
          </div>
        </fieldset>
      )) : null}
      <button type="submit" disabled={busy}>Record stop {number}</button>
      <ProblemNotice problem={problem} shownFields={['status', 'reasonCode', ...stop.lines.flatMap((_, i) => [...QUANTITIES.delivery, ...QUANTITIES.collection, 'reasonCode'].map((n) => `lines[${i}].${n}`))]} />
    </form>
  );
}

/** The lines of a finished stop, each outcome in words (the stop's reason is said once, beside the stop). */
function StopLines({ stop }: { stop: Stop }) {
  return (
    <div class="table-wrap">
      <table class="stop-lines">
        <caption class="sr-only">Lines of stop {counted(stop.index)}</caption>
        <thead><tr><th scope="col">Line</th><th scope="col">Role</th><th scope="col">Quantity</th><th scope="col">Outcome</th></tr></thead>
        <tbody>
          {stop.lines.map((l) => (
            <tr key={l.lineId}>
              <th scope="row">{counted(l.line)}</th><td>{l.role}</td><td>{l.quantity}</td>
              <td class="outcome-words">{l.outcome ? outcomeWords(l.outcome, stop.reasonCode) : <span class="muted">no outcome</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A stop: its number, status and order (by external and short id; the uuid beneath), then its outcome form or lines. */
function StopCard({ trip, stop, order, onDone }: { trip: TripDetail; stop: Stop; order: OrderDetail | undefined; onDone: (trip: TripDetail) => void }) {
  return (
    <li class="stop">
      <p>
        <strong>Stop {counted(stop.index)}</strong> <Status value={stop.status} /> order{' '}
        <a href={`#orders/${stop.orderId}`}>{order ? order.externalId ?? order.shortId : stop.orderId}</a>
        {order?.externalId ? <> <span class="mono nowrap">{order.shortId}</span></> : null}
        {stop.reasonCode ? <>, reason <code>{stop.reasonCode}</code></> : null}{stop.finishedAtUtc ? <>, finished <When utc={stop.finishedAtUtc} /></> : null}
      </p>
      {order ? <p class="muted mono secondary">order id {stop.orderId}</p> : null}
      {stop.status === 'Open' && (trip.status === 'Confirmed' || trip.status === 'InProgress') ? <StopOutcomeForm trip={trip} stop={stop} onDone={onDone} /> : <StopLines stop={stop} />}
    </li>
  );
}

/** The detail of the trip `tripId` of the chosen tenant. */
export function TripDetailView({ tripId }: { tripId: string }) {
  const { api, tenant } = useContext(ConsoleContext);
  const [trip, setTrip] = useState<TripDetail | null>(null);
  const [orders, setOrders] = useState<Record<string, OrderDetail>>({});
  const [cancelReason, setCancelReason] = useState('');
  const load = useAction();
  const act = useAction();
  const base = tenant ? `/tenants/${seg(tenant.id)}/trips/${seg(tripId)}` : '';
  const show = async (changed: TripDetail) => {
    setTrip(changed);
    if (!tenant) return;
    const read = await Promise.all(changed.stops.map((s) => api.get<OrderDetail>(`/tenants/${seg(tenant.id)}/orders/${seg(s.orderId)}`)));
    setOrders(Object.fromEntries(read.map((o) => [o.id, o])));
  };
  useEffect(() => {
    if (tenant) load.run(() => api.get<TripDetail>(base)).then((t) => t && show(t));
  }, [tripId, tenant?.id]);
  const move = async (path: string, body?: unknown) => {
    const changed = await act.run(() => api.post<TripDetail>(`${base}/${path}`, body), (t) => `Trip ${t.shortId} is ${t.status}.`);
    if (changed) await show(changed);
  };
  return (
    <>
      <p><a href="#trips">← Trips</a></p>
      <ProblemNotice problem={load.problem} />
      {trip ? (
        <>
          <Panel title={`Trip ${trip.shortId}`}>
            <dl class="facts">
              <dt>Status</dt><dd><Status value={trip.status} /></dd>
              <dt>Id</dt><dd class="mono">{trip.id}</dd>
              <dt>Warehouse</dt><dd class="mono">{String(trip['warehouseId'] ?? '—')}</dd>
              <dt>Planned</dt><dd><When utc={String(trip['plannedAtUtc'] ?? '') || null} /></dd>
              <dt>Updated</dt><dd><When utc={trip.updatedAtUtc} /></dd>
            </dl>
            {trip.status === 'Confirmed' || trip.status === 'InProgress' ? (
              <>
                <div class="buttons">
                  {trip.status === 'Confirmed' ? <button type="button" disabled={act.busy} onClick={() => move('start')}>Start trip</button> : null}
                  {trip.status === 'InProgress' ? <button type="button" disabled={act.busy} onClick={() => move('complete')}>Complete trip</button> : null}
                </div>
                <form class="row" onSubmit={(event) => {
                  event.preventDefault();
                  void move('cancel', { reasonCode: cancelReason });
                }}>
                  <TextField label="Cancel reason code" name="reasonCode" value={cancelReason} onValue={setCancelReason} problem={act.problem} placeholder="VehicleBreakdown" />
                  <div class="field button-field"><button type="submit" class="danger" disabled={act.busy}>Cancel trip</button></div>
                </form>
              </>
            ) : <p class="muted">A {trip.status} trip takes no more moves.</p>}
            <ProblemNotice problem={act.problem} shownFields={['reasonCode']} />
          </Panel>
          <Panel title={`Stops (${trip.stops.length})`}>
            <ol class="stops">{trip.stops.map((s) => <StopCard key={`${s.index}-${s.status}`} trip={trip} stop={s} order={orders[s.orderId]} onDone={show} />)}</ol>
          </Panel>
        </>
      ) : null}
    </>
  );
}
