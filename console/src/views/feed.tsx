/** The order and trip feeds as a key sees them, paged with the real `nextCursor`. */
import { useContext, useState } from 'preact/hooks';
import { integrationGet } from '../api.ts';
import { CopyButton, Panel, ProblemNotice, SelectField, Status, TextField, useAction, When } from '../components.tsx';
import { ConsoleContext } from '../context.ts';
import { KeyChooser } from '../key-chooser.tsx';
import { ORDER_STATUSES, type Order, type OrderPage, TRIP_STATUSES, type Trip, type TripPage } from '../types.ts';
import { NeedTenant } from './need-tenant.tsx';

type Feed = 'orders' | 'trips';

function FeedTable({ feed, items }: { feed: Feed; items: (Order | Trip)[] }) {
  if (items.length === 0) return <p class="empty">This page is empty: the feed is caught up.</p>;
  return (
    <div class="table-wrap">
      <table>
        <caption class="sr-only">{feed} on this page</caption>
        <thead>
          {feed === 'orders'
            ? <tr><th scope="col">External id</th><th scope="col">Short id</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Mini-status</th><th scope="col">Updated</th></tr>
            : <tr><th scope="col">Short id</th><th scope="col">Id</th><th scope="col">Status</th><th scope="col">Stops</th><th scope="col">Updated</th></tr>}
        </thead>
        <tbody>
          {feed === 'orders'
            ? (items as Order[]).map((o) => (
                <tr key={o.id}><th scope="row">{o.externalId ?? '—'}</th><td class="mono nowrap">{o.shortId}</td><td>{o.type}</td><td><Status value={o.status} /></td><td>{o.miniStatus ?? '—'}</td><td><When utc={o.updatedAtUtc} /></td></tr>
              ))
            : (items as Trip[]).map((t) => (
                <tr key={t.id}><th scope="row">{t.shortId}</th><td class="mono nowrap">{t.id}</td><td><Status value={t.status} /></td><td>{String(t['stopCount'] ?? '')}</td><td><When utc={t.updatedAtUtc} /></td></tr>
              ))}
        </tbody>
      </table>
    </div>
  );
}

/** The feed view. */
export function FeedView(_: { param: string }) {
  const { tenant } = useContext(ConsoleContext);
  const [feed, setFeed] = useState<Feed>('orders');
  const [secret, setSecret] = useState('');
  const [status, setStatus] = useState('');
  const [since, setSince] = useState('');
  const [limit, setLimit] = useState('50');
  const [page, setPage] = useState<OrderPage | TripPage | null>(null);
  const [pageNumber, setPageNumber] = useState(0);
  const [cursor, setCursor] = useState<string | null>(null);
  const { busy, problem, run } = useAction();
  if (!tenant) return <NeedTenant />;
  const read = async (from: string | null) => {
    const answer = await run(
      () => integrationGet<OrderPage | TripPage>(secret, `/${feed}`, { limit, status: status || undefined, since: from ? undefined : since || undefined, cursor: from }),
      (p) => `Page ${from ? pageNumber + 1 : 1}: ${p.items.length} ${feed}${p.nextCursor ? '' : '; the feed is caught up'}.`,
    );
    if (answer) {
      setPage(answer);
      setCursor(from);
      setPageNumber(from ? pageNumber + 1 : 1);
    }
  };
  return (
    <>
      <Panel title="Read as a key">
        <KeyChooser secret={secret} onSecret={setSecret} scope={feed === 'orders' ? 'orders:read' : 'trips:read'} />
        <form onSubmit={(event) => {
          event.preventDefault();
          void read(null);
        }}>
          <div class="row">
            <SelectField label="Feed" name="feed" value={feed} options={['orders', 'trips']} onValue={(v) => {
              setFeed(v as Feed);
              setStatus('');
              setPage(null);
            }} />
            <SelectField label="Status" name="status" value={status} options={feed === 'orders' ? ORDER_STATUSES : TRIP_STATUSES} onValue={setStatus} problem={problem} blank="Any status" />
            <TextField label="Since" name="since" value={since} onValue={setSince} problem={problem} placeholder="2026-11-20T00:00:00Z" hint="RFC 3339; ignored with a cursor" />
            <TextField label="Limit" name="limit" value={limit} onValue={setLimit} problem={problem} type="number" hint="1 to 100" />
          </div>
          <button type="submit" disabled={busy || !secret}>Read first page</button>
        </form>
        <ProblemNotice problem={problem} shownFields={['status', 'since', 'limit']} />
      </Panel>
      {page ? (
        <Panel title={`Page ${pageNumber} of the ${feed} feed`}>
          <p class="cursor-line">Read with cursor: {cursor ? <code>{cursor}</code> : <span class="muted">none (first page)</span>}</p>
          <FeedTable feed={feed} items={page.items} />
          <p class="cursor-line">nextCursor: {page.nextCursor ? <><code>{page.nextCursor}</code> <CopyButton text={page.nextCursor} label="Copy cursor" /></> : <span class="muted">null: caught up</span>}</p>
          <div class="buttons">
            <button type="button" disabled={busy || !page.nextCursor} onClick={() => read(page.nextCursor)}>Next page</button>
            <button type="button" class="secondary" disabled={busy} onClick={() => read(null)}>Start over</button>
          </div>
        </Panel>
      ) : null}
    </>
  );
}
