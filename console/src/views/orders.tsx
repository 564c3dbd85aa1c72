/**
 * Orders of the chosen tenant. The control plane has no order list, so the list and the
 * search by external id read the order feed as a key of the tenant sees it; an order id
 * opens the control plane's detail directly.
 */
import { useContext, useEffect, useState } from 'preact/hooks';
import { integrationGet, seg } from '../api.ts';
import { Panel, ProblemNotice, SelectField, Status, TextField, useAction, When } from '../components.tsx';
import { ConsoleContext } from '../context.ts';
import { KeyChooser } from '../key-chooser.tsx';
import { ORDER_STATUSES, type Order, type OrderDetail, type OrderPage } from '../types.ts';
import { Directory } from './directory.tsx';
import { NeedTenant } from './need-tenant.tsx';
import { OrderCreateForm, OrderImportForm } from './order-create.tsx';
import { OrderDetailView } from './order-detail.tsx';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** How many feed pages a search by external id reads before it gives up. */
const SEARCH_PAGES = 50;

/** A table of orders, each opening its detail. */
export function OrderTable({ orders, caption }: { orders: Order[]; caption: string }) {
  return (
    <div class="table-wrap">
      <table>
        <caption class="sr-only">{caption}</caption>
        <thead><tr><th scope="col">External id</th><th scope="col">Short id</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Mini-status</th><th scope="col">Updated</th></tr></thead>
        <tbody>
          {orders.map((o) => (
            <tr key={o.id}>
              <th scope="row"><a href={`#orders/${o.id}`}>{o.externalId ?? o.id}</a></th>
              <td class="mono nowrap">{o.shortId}</td>
              <td>{o.type}</td>
              <td><Status value={o.status} /></td>
              <td>{o.miniStatus ?? <span class="muted">—</span>}</td>
              <td><When utc={o.updatedAtUtc} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function OrderFinder({ secret }: { secret: string }) {
  const { api, tenant, rememberOrders } = useContext(ConsoleContext);
  const [query, setQuery] = useState('');
  const [note, setNote] = useState('');
  const { busy, problem, run } = useAction();
  return (
    <form class="row" onSubmit={async (event) => {
      event.preventDefault();
      setNote('');
      const wanted = query.trim();
      if (!tenant || !wanted) return;
      if (UUID.test(wanted)) {
        const order = await run(() => api.get<OrderDetail>(`/tenants/${seg(tenant.id)}/orders/${seg(wanted)}`));
        if (order) location.hash = `#orders/${order.id}`;
        return;
      }
      if (!secret) {
        setNote('Finding by external id reads the order feed: choose or paste a key with orders:read above.');
        return;
      }
      const found = await run(async () => {
        let cursor: string | null = null;
        for (let page = 0; page < SEARCH_PAGES; page++) {
          const feed: OrderPage = await integrationGet<OrderPage>(secret, '/orders', { limit: 100, cursor });
          const hit = feed.items.find((o) => o.externalId === wanted);
          if (hit) return hit;
          cursor = feed.nextCursor;
          if (!cursor) return null;
        }
        return null;
      });
      if (found) {
        rememberOrders([found]);
        location.hash = `#orders/${found.id}`;
      } else if (found === null) setNote(`No live order with external id ${wanted} in the feed (archived orders leave the feed).`);
    }}>
      <TextField label="External id or order id" name="find" value={query} onValue={setQuery} placeholder="SHOP-1001" />
      <div class="field button-field"><button type="submit" disabled={busy}>Find</button></div>
      {note ? <p class="note" role="status">{note}</p> : null}
      <ProblemNotice problem={problem} />
    </form>
  );
}

/** The feed's orders as the key `secret` sees them; read again when `made` counts a new order of this tab. */
function OrderList({ secret, made }: { secret: string; made: number }) {
  const { rememberOrders } = useContext(ConsoleContext);
  const [status, setStatus] = useState('');
  const [orders, setOrders] = useState<Order[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const { busy, problem, run } = useAction();
  const load = async (cursor: string | null) => {
    const page = await run(() => integrationGet<OrderPage>(secret, '/orders', { limit: 25, status: status || undefined, cursor }));
    if (!page) return;
    setOrders(cursor ? [...orders, ...page.items] : page.items);
    setNext(page.nextCursor);
    rememberOrders(page.items);
  };
  useEffect(() => {
    setOrders([]);
    setNext(null);
    if (secret) void load(null);
  }, [secret, status, made]);
  if (!secret) return <p class="empty">Choose or paste a key with orders:read to list the tenant's orders (the control plane has no order list).</p>;
  return (
    <>
      <div class="row filters">
        <SelectField label="Status" name="status" value={status} options={ORDER_STATUSES} onValue={setStatus} blank="Any status" />
      </div>
      <ProblemNotice problem={problem} />
      {orders.length === 0 && !busy ? <p class="empty">No orders{status ? ` in ${status}` : ''}.</p> : <OrderTable orders={orders} caption="Orders from the feed" />}
      {next ? <button type="button" class="secondary" disabled={busy} onClick={() => load(next)}>More orders</button> : null}
    </>
  );
}

/** The orders view: `param` is an order id to show. */
export function OrdersView({ param }: { param: string }) {
  const { tenant, recentOrders } = useContext(ConsoleContext);
  const [secret, setSecret] = useState('');
  const [made, setMade] = useState(0);
  const madeOne = () => setMade((n) => n + 1);
  if (!tenant) return <NeedTenant />;
  if (param) return <OrderDetailView orderId={param} />;
  const mine = recentOrders.filter((o) => o.tenantId === tenant.id);
  return (
    <>
      <Panel title="Find and list">
        <KeyChooser secret={secret} onSecret={setSecret} scope="orders:read" />
        <OrderFinder secret={secret} />
        <OrderList secret={secret} made={made} />
      </Panel>
      {mine.length ? <Panel title="Orders of this tab"><OrderTable orders={mine.slice(0, 20)} caption="Orders created or opened in this tab" /></Panel> : null}
      <Panel title="New order"><OrderCreateForm onCreated={madeOne} /></Panel>
      <Panel title="Import orders"><OrderImportForm onCreated={madeOne} /></Panel>
      <Directory />
    </>
  );
}
