/**
 * The request log of the chosen tenant's integration calls (`/tenants/{id}/requests`, D48):
 * filters, pages by the server's cursor, a live tail over the SSE stream (a streaming fetch,
 * since the token goes in a header), and one entry's request beside its response with the
 * catalog meaning of its problem type and the curl line that replays it. A sandbox without
 * these endpoints answers 404 and the view says the log is not available.
 */
import { useContext, useEffect, useRef, useState } from 'preact/hooks';
import { counted } from '../../../cli/counted.ts';
import { type Problem, seg } from '../api.ts';
import { CopyButton, Panel, ProblemNotice, SelectField, TextField, useAction, useTenantItems, When } from '../components.tsx';
import { ConsoleContext } from '../context.ts';
import { storedToken } from '../session.ts';
import { type ApiKey, INTEGRATION_OPERATIONS, type LogBody, type LogEntry, type LogPage, type LogSummary, type RequestLogFault, STATUS_CLASSES } from '../types.ts';
import { NeedTenant } from './need-tenant.tsx';

interface Filters {
  operation: string;
  statusClass: string;
  problemType: string;
  keyId: string;
  since: string;
}

/** True for the 404 of a sandbox that has no request-log endpoints (not an unknown tenant). */
const notServed = (problem: Problem | null) => problem?.status === 404 && /no operation/i.test(problem.detail ?? '');

/** Whether a streamed entry passes the filters the list was read with. */
function passes(entry: LogSummary, filters: Filters): boolean {
  return (!filters.operation || entry.operation === filters.operation)
    && (!filters.statusClass || `${String(entry.status)[0]}xx` === filters.statusClass)
    && (!filters.problemType || entry.problemType === filters.problemType)
    && (!filters.keyId || entry.keyId === filters.keyId)
    && (!filters.since || Date.parse(entry.atUtc) >= Date.parse(filters.since));
}

type Catalog = Record<string, { status: number; meaning: string } | undefined>;
let catalogPromise: Promise<Catalog> | null = null;
/** The error catalog the build wrote beside the console, fetched once. */
const errorCatalog = () =>
  (catalogPromise ??= fetch('/console/catalog.json').then((r): Promise<Catalog> | Catalog => (r.ok ? (r.json() as Promise<Catalog>) : {}), (): Catalog => ({})));

/** A body as text, JSON pretty-printed. */
function shown(body: LogBody): string {
  if (body.body === null) return '(no body)';
  try {
    return JSON.stringify(JSON.parse(body.body), null, 2);
  } catch {
    return body.body;
  }
}

/** A logged status in words: 0 is a call that got no answer (a reset or empty fault, D51). */
const statusText = (status: number) => (status === 0 ? 'no answer' : String(status));

/** The fault mark of a call: `fault: reset after (rule)`, `fault: latency 300 ms (prefer)`, `fault: status (rule) +120 ms`. */
function faultText(f: RequestLogFault): string {
  const wait = f.latencyMs !== undefined && f.latencyMs > 0 ? `${Math.round(f.latencyMs)} ms` : '';
  const when = f.when ? ` ${f.when}` : '';
  return f.fault === 'latency' ? `fault: latency${wait ? ` ${wait}` : ''}${when} (${f.source})` : `fault: ${f.fault}${when} (${f.source})${wait ? ` +${wait}` : ''}`;
}

/** The fault of a call as a badge. */
const FaultBadge = ({ fault }: { fault: RequestLogFault }) => <span class="status status-fault">{faultText(fault)}</span>;

function BodyPane({ title, head, body }: { title: string; head: string; body: LogBody }) {
  return (
    <section class="pane" aria-label={title}>
      <h3>{title}</h3>
      <p class="mono">{head}</p>
      <p class="muted">{body.contentType ?? 'no Content-Type'} · {counted(body.bytes, 'byte')}{body.truncated ? ' · cut at 16 KiB' : ''}</p>
      <pre tabIndex={0}>{shown(body)}</pre>
    </section>
  );
}

function EntryDetail({ entry }: { entry: LogEntry }) {
  const [meaning, setMeaning] = useState<string | null>(null);
  useEffect(() => {
    setMeaning(null);
    if (entry.problemType && entry.problemType !== 'about:blank') void errorCatalog().then((catalog) => setMeaning(catalog[entry.problemType!]?.meaning ?? null));
  }, [entry.id]);
  return (
    <Panel title={`Request ${entry.id}: ${entry.operation}`}>
      <dl class="facts">
        <dt>At</dt><dd><When utc={entry.atUtc} /></dd>
        <dt>Key</dt><dd class="mono">{entry.keyId}</dd>
        <dt>Request id</dt><dd class="mono">{entry.requestId}</dd>
        <dt>Latency</dt><dd>{entry.latencyMs} ms</dd>
        {entry.fault ? (
          <>
            <dt>Fault</dt>
            <dd><FaultBadge fault={entry.fault} /> {entry.fault.source === 'rule' ? <>from rule <a class="mono" href="#faults">{entry.fault.ruleId}</a></> : <>asked for by the request's <code>Prefer</code> header</>}</dd>
          </>
        ) : null}
        {entry.idempotencyKey ? <><dt>Idempotency-Key</dt><dd class="mono">{entry.idempotencyKey}{entry.replayed ? ' (replayed)' : ''}</dd></> : null}
        {entry.problemType ? (
          <>
            <dt>Problem type</dt>
            <dd><code>{entry.problemType}</code>{meaning ? <> — {meaning}</> : null} {entry.problemType !== 'about:blank' ? <a href={`/docs/errors#${entry.problemType}`}>in the catalog</a> : null}</dd>
          </>
        ) : null}
      </dl>
      <div class="side-by-side">
        <BodyPane title="Request" head={`${entry.method} ${entry.path}`} body={entry.request} />
        <BodyPane title="Response" head={statusText(entry.status)} body={entry.response} />
      </div>
      <h3>Replay</h3>
      <pre class="curl" tabIndex={0}>{entry.curl}</pre>
      <CopyButton text={entry.curl} label="Copy as curl" />
    </Panel>
  );
}

/** Reads the SSE stream of new entries until `signal` aborts; each entry goes to `onEntry`. */
async function tail(url: string, token: string, signal: AbortSignal, onEntry: (entry: LogSummary) => void): Promise<void> {
  const response = await fetch(url, { headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' }, signal, cache: 'no-store' });
  if (!response.ok || !response.body) throw new Error(`the stream answered ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trimStart()).join('\n');
      if (data && /^event: ?entry$/m.test(event)) onEntry(JSON.parse(data) as LogSummary);
    }
  }
}

/** The request log view. */
export function RequestLogView(_: { param: string }) {
  const { api, tenant, announce } = useContext(ConsoleContext);
  const [keys] = useTenantItems<ApiKey>('/keys');
  const [draft, setDraft] = useState<Filters>({ operation: '', statusClass: '', problemType: '', keyId: '', since: '' });
  const [filters, setFilters] = useState<Filters>(draft);
  const [entries, setEntries] = useState<LogSummary[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [chosen, setChosen] = useState<LogEntry | null>(null);
  const [live, setLive] = useState(false);
  const [liveProblem, setLiveProblem] = useState<string | null>(null);
  const list = useAction();
  const detail = useAction();
  const filtersRef = useRef(filters);
  filtersRef.current = filters;
  const base = tenant ? `/tenants/${seg(tenant.id)}/requests` : '';

  const load = async (after: string | null) => {
    const page = await list.run(() => api.get<LogPage>(base, { ...filters, after, limit: 50 }));
    if (page) {
      setEntries((now) => (after ? [...now, ...page.items] : page.items));
      setNext(page.nextCursor);
    }
  };
  useEffect(() => {
    setChosen(null);
    if (tenant) void load(null);
  }, [tenant?.id, filters]);
  useEffect(() => {
    if (!live || !tenant) return;
    const stop = new AbortController();
    setLiveProblem(null);
    tail(`/sandbox/v1${base}/stream`, storedToken() ?? '', stop.signal, (entry) => {
      if (!passes(entry, filtersRef.current)) return;
      setEntries((now) => (now.some((e) => e.id === entry.id) ? now : [entry, ...now]));
      announce(`New request: ${entry.operation} ${statusText(entry.status)}.`);
    }).catch((error) => {
      if (!stop.signal.aborted) setLiveProblem(`The live tail stopped: ${String(error)}`);
    });
    return () => stop.abort();
  }, [live, tenant?.id]);

  if (!tenant) return <NeedTenant />;
  if (notServed(list.problem)) {
    return (
      <section class="panel" aria-labelledby="log-missing">
        <h2 id="log-missing">Not available</h2>
        <p>This sandbox does not serve the request log (<code>GET /sandbox/v1/tenants/{'{tenantId}'}/requests</code> answered 404). A newer <code>waybill serve</code> records each integration call with its request, answer and a curl line to replay it.</p>
        <p>Meanwhile every answer carries an <code>X-Request-Id</code>, and <code>waybill serve</code> prints an access line per request unless started with <code>--quiet</code>.</p>
      </section>
    );
  }
  const set = (name: keyof Filters) => (value: string) => setDraft((now) => ({ ...now, [name]: value }));
  return (
    <>
      <Panel title="Filters">
        <form onSubmit={(event) => {
          event.preventDefault();
          setFilters({ ...draft });
        }}>
          <div class="row">
            <SelectField label="Operation" name="operation" value={draft.operation} options={INTEGRATION_OPERATIONS} onValue={set('operation')} problem={list.problem} blank="Any operation" />
            <SelectField label="Status class" name="statusClass" value={draft.statusClass} options={STATUS_CLASSES} onValue={set('statusClass')} problem={list.problem} blank="Any status" />
            <TextField label="Problem type" name="problemType" value={draft.problemType} onValue={set('problemType')} problem={list.problem} placeholder="payments.amount.invalid" />
            <SelectField label="Key" name="keyId" value={draft.keyId} options={keys.map((k) => k.id)} onValue={set('keyId')} problem={list.problem} blank="Any key" />
            <TextField label="Since" name="since" value={draft.since} onValue={set('since')} problem={list.problem} placeholder="2026-11-20T09:00:00Z" />
          </div>
          <div class="buttons">
            <button type="submit" disabled={list.busy}>Apply filters</button>
            <label class="check"><input type="checkbox" checked={live} onChange={(event) => setLive(event.currentTarget.checked)} /> Live tail</label>
          </div>
        </form>
        <ProblemNotice problem={list.problem} shownFields={['operation', 'statusClass', 'problemType', 'keyId', 'since']} />
        {liveProblem ? <p class="problem" role="alert">{liveProblem}</p> : null}
      </Panel>
      <Panel title={`Requests (${entries.length}${next ? '+' : ''})`}>
        {entries.length === 0 ? <p class="empty">No requests{live ? ' yet; new ones appear here as they arrive' : ''}.</p> : (
          <div class="table-wrap">
            <table>
              <caption class="sr-only">Requests, newest first</caption>
              <thead><tr><th scope="col">At</th><th scope="col">Operation</th><th scope="col">Request</th><th scope="col">Status</th><th scope="col">Problem type</th><th scope="col">Key</th><th scope="col">ms</th><th scope="col">Detail</th></tr></thead>
              <tbody>
                {entries.map((e) => (
                  <tr key={e.id} class={chosen?.id === e.id ? 'selected' : undefined}>
                    <td><When utc={e.atUtc} /></td>
                    <th scope="row">{e.operation}</th>
                    <td class="mono">{e.method} {e.path}</td>
                    <td><span class={`status status-${e.status > 0 && e.status < 400 ? 'completed' : 'failed'}`}>{statusText(e.status)}</span>{e.fault ? <> <FaultBadge fault={e.fault} /></> : null}</td>
                    <td>{e.problemType ? <code>{e.problemType}</code> : <span class="muted">—</span>}</td>
                    <td class="mono nowrap">{e.keyId}</td>
                    <td>{e.latencyMs}</td>
                    <td><button type="button" class="secondary" aria-label={`Open request ${e.id}`} disabled={detail.busy}
                      onClick={() => detail.run(() => api.get<LogEntry>(`${base}/${e.id}`)).then((entry) => entry && setChosen(entry))}>Open</button></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {next ? <button type="button" class="secondary" disabled={list.busy} onClick={() => load(next)}>Older requests</button> : null}
      </Panel>
      <ProblemNotice problem={detail.problem} />
      {chosen ? <EntryDetail entry={chosen} /> : null}
    </>
  );
}
