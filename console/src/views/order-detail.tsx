/** One order: its fields, lines, payments and history (paged with the server's cursor), and its mini-status. */
import { useContext, useEffect, useState } from 'preact/hooks';
import { seg } from '../api.ts';
import { Panel, ProblemNotice, Status, TextField, useAction, useTenantItems, When } from '../components.tsx';
import { ConsoleContext } from '../context.ts';
import type { HistoryEntry, HistoryPage, MiniStatus, OrderDetail } from '../types.ts';
import { counted, HistoryWords } from '../words.tsx';

function History({ orderId, version }: { orderId: string; version: string }) {
  const { api, tenant } = useContext(ConsoleContext);
  const [entries, setEntries] = useState<HistoryEntry[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const { busy, problem, run } = useAction();
  const load = async (after: string | null) => {
    if (!tenant) return;
    const page = await run(() => api.get<HistoryPage>(`/tenants/${seg(tenant.id)}/orders/${seg(orderId)}/history`, { after, limit: 50 }));
    if (page) {
      setEntries((now) => (after ? [...now, ...page.items] : page.items));
      setNext(page.nextCursor);
    }
  };
  useEffect(() => void load(null), [orderId, version]);
  const payments = entries.filter((e) => e.kind === 'payment');
  return (
    <>
      <Panel title={`Payments (${payments.length}${next ? '+' : ''})`}>
        {payments.length === 0 ? <p class="empty">No payments{next ? ' in the history read so far' : ''}.</p> : (
          <div class="table-wrap">
            <table>
              <caption class="sr-only">Payments</caption>
              <thead><tr><th scope="col">Payment id</th><th scope="col">Amount</th><th scope="col">Currency</th><th scope="col">At</th></tr></thead>
              <tbody>
                {payments.map((p) => (
                  <tr key={p.seq}><td class="mono nowrap">{String(p.data['paymentId'])}</td><td>{String(p.data['amount'])}</td><td>{String(p.data['currency'])}</td><td><When utc={p.atUtc} /></td></tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Panel>
      <Panel title="History">
        <ProblemNotice problem={problem} />
        <ol class="history">
          {entries.map((e) => (
            <li key={e.seq}>
              <When utc={e.atUtc} /> <HistoryWords entry={e} />
            </li>
          ))}
        </ol>
        {next ? <button type="button" class="secondary" disabled={busy} onClick={() => load(next)}>Older… more history</button> : null}
      </Panel>
    </>
  );
}

function MiniStatusForm({ order, onChanged }: { order: OrderDetail; onChanged: (order: OrderDetail) => void }) {
  const { api, tenant } = useContext(ConsoleContext);
  const [entries] = useTenantItems<MiniStatus>('/ministatuses');
  const [label, setLabel] = useState(order.miniStatus ?? '');
  const { busy, problem, run } = useAction();
  const offered = entries.filter((m) => m.active && m.status === order.status);
  if (!tenant) return null;
  return (
    <form class="row" onSubmit={async (event) => {
      event.preventDefault();
      const changed = await run(() => api.put<OrderDetail>(`/tenants/${seg(tenant.id)}/orders/${seg(order.id)}/mini-status`, { miniStatus: label }), (o) => `Mini-status set to ${o.miniStatus}.`);
      if (changed) onChanged(changed);
    }}>
      <TextField label="Mini-status" name="miniStatus" value={label} onValue={setLabel} problem={problem}
        hint={offered.length ? `For ${order.status}: ${offered.map((m) => m.name).join(', ')}` : `The directory has no active label for ${order.status}.`} />
      <div class="field button-field"><button type="submit" disabled={busy}>Set mini-status</button></div>
      <ProblemNotice problem={problem} shownFields={['miniStatus']} />
    </form>
  );
}

/** The detail of the order `orderId` of the chosen tenant. */
export function OrderDetailView({ orderId }: { orderId: string }) {
  const { api, tenant } = useContext(ConsoleContext);
  const [order, setOrder] = useState<OrderDetail | null>(null);
  const { problem, run } = useAction();
  useEffect(() => {
    if (tenant) run(() => api.get<OrderDetail>(`/tenants/${seg(tenant.id)}/orders/${seg(orderId)}`)).then((o) => o && setOrder(o));
  }, [orderId, tenant?.id]);
  return (
    <>
      <p><a href="#orders">← All orders</a></p>
      <ProblemNotice problem={problem} />
      {order ? (
        <>
          <Panel title={`Order ${order.externalId ?? order.shortId}`}>
            <dl class="facts">
              <dt>Status</dt><dd><Status value={order.status} /></dd>
              <dt>Mini-status</dt><dd>{order.miniStatus ?? '—'}</dd>
              <dt>Type</dt><dd>{order.type}</dd>
              <dt>Short id</dt><dd class="mono">{order.shortId}</dd>
              <dt>Id</dt><dd class="mono">{order.id}</dd>
              <dt>Custom id</dt><dd>{order.customId ?? '—'}</dd>
              <dt>Trip</dt><dd>{order.tripId ? <a href={`#trips/${order.tripId}`} class="mono">{order.tripId}</a> : '—'}</dd>
              <dt>Tags</dt><dd>{order.tags.length ? order.tags.join(', ') : '—'}</dd>
              <dt>Created</dt><dd><When utc={order.createdAtUtc} /></dd>
              <dt>Updated</dt><dd><When utc={order.updatedAtUtc} /></dd>
              <dt>Archived</dt><dd><When utc={order.archivedAtUtc} /></dd>
            </dl>
            <MiniStatusForm key={order.updatedAtUtc} order={order} onChanged={setOrder} />
          </Panel>
          <Panel title={`Lines (${order.lines.length})`}>
            <div class="table-wrap">
              <table>
                <caption class="sr-only">Lines</caption>
                <thead><tr><th scope="col">Line</th><th scope="col">Role</th><th scope="col">Quantity</th><th scope="col">Product</th><th scope="col">Warehouse</th><th scope="col">Weight kg</th><th scope="col">Volume m³</th><th scope="col">Price</th></tr></thead>
                <tbody>
                  {order.lines.map((l) => (
                    <tr key={l.id}><td>{counted(l.line)}</td><td>{l.role}</td><td>{l.quantity}</td><td class="mono nowrap">{l.productId}</td><td class="mono nowrap">{l.warehouseId}</td><td>{l.weightKg}</td><td>{l.volumeM3}</td><td>{l.price}</td></tr>
                  ))}
                </tbody>
              </table>
            </div>
          </Panel>
          <History orderId={order.id} version={order.updatedAtUtc} />
        </>
      ) : null}
    </>
  );
}
