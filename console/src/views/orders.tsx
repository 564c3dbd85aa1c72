/**
 * Orders of the chosen tenant: the control plane's list (D87), newest changed first unless
 * flipped, by status, page by page; a search by external id or order id; new orders and
 * imports, which the list shows at its top.
 */
import { useContext, useState } from 'preact/hooks';
import { seg } from '../api.ts';
import { Panel, ProblemNotice, SelectField, Status, TextField, useAction, When } from '../components.tsx';
import { ConsoleContext } from '../context.ts';
import { type Sort, SortHeader, SortToggle, sortWords, usePagedList } from '../paged-list.tsx';
import { ORDER_STATUSES, type Order, type OrderDetail } from '../types.ts';
import { Directory } from './directory.tsx';
import { NeedTenant } from './need-tenant.tsx';
import { OrderCreateForm, OrderImportForm } from './order-create.tsx';
import { OrderDetailView } from './order-detail.tsx';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** How many list pages of 100 a search by external id reads before it gives up. */
const SEARCH_PAGES = 50;

/** A table of orders, each opening its detail. */
function OrderTable({ orders, sort }: { orders: Order[]; sort: Sort }) {
  return (
    <div class="table-wrap">
      <table>
        <caption class="sr-only">Orders, {sortWords(sort)}</caption>
        <thead><tr><th scope="col">External id</th><th scope="col">Short id</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Mini-status</th><SortHeader sort={sort} /></tr></thead>
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

/** Finds an order by its id, or by its external id in the list of live orders. */
function OrderFinder() {
  const { api, tenant } = useContext(ConsoleContext);
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
      const found = await run(async () => {
        let after: string | null = null;
        for (let page = 0; page < SEARCH_PAGES; page++) {
          const list: { items: Order[]; nextCursor: string | null } = await api.get(`/tenants/${seg(tenant.id)}/orders`, { limit: 100, after });
          const hit = list.items.find((o) => o.externalId === wanted);
          if (hit) return hit;
          after = list.nextCursor;
          if (!after) return null;
        }
        return null;
      });
      if (found) location.hash = `#orders/${found.id}`;
      else if (found === null) setNote(`No live order with external id ${wanted} (an archived order opens by its order id).`);
    }}>
      <TextField label="External id or order id" name="find" value={query} onValue={setQuery} placeholder="SHOP-1001" />
      <div class="field button-field"><button type="submit" disabled={busy}>Find</button></div>
      {note ? <p class="note" role="status">{note}</p> : null}
      <ProblemNotice problem={problem} />
    </form>
  );
}

/** The tenant's live orders, 25 a page; read again when `made` counts a new order. */
function OrderList({ made }: { made: number }) {
  const { tenant } = useContext(ConsoleContext);
  const [status, setStatus] = useState('');
  const [sort, setSort] = useState<Sort>('newest');
  const list = usePagedList<Order>(tenant ? `/tenants/${seg(tenant.id)}/orders` : null, { statuses: status ? [status] : [], sort, limit: 25, reload: made });
  return (
    <>
      <div class="row filters">
        <SelectField label="Status" name="status" value={status} options={ORDER_STATUSES} onValue={setStatus} blank="Any status" />
        <SortToggle sort={sort} onSort={setSort} />
      </div>
      <ProblemNotice problem={list.problem} />
      {list.items.length === 0 && !list.busy ? <p class="empty">No orders{status ? ` in ${status}` : ''}.</p> : <OrderTable orders={list.items} sort={sort} />}
      {list.more ? <button type="button" class="secondary" disabled={list.busy} onClick={list.more}>More orders</button> : null}
    </>
  );
}

/** The orders view: `param` is an order id to show. */
export function OrdersView({ param }: { param: string }) {
  const { tenant } = useContext(ConsoleContext);
  const [made, setMade] = useState(0);
  const madeOne = () => setMade((n) => n + 1);
  if (!tenant) return <NeedTenant />;
  if (param) return <OrderDetailView orderId={param} />;
  return (
    <>
      <Panel title="Live orders">
        <OrderFinder />
        <OrderList made={made} />
      </Panel>
      <Panel title="New order"><OrderCreateForm onCreated={madeOne} /></Panel>
      <Panel title="Import orders"><OrderImportForm onCreated={madeOne} /></Panel>
      <Directory />
    </>
  );
}
