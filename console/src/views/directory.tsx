/** The tenant's directory: tags (to tag new orders) and mini-statuses (labels within a status). */
import { useContext, useState } from 'preact/hooks';
import { seg } from '../api.ts';
import { Panel, ProblemNotice, SelectField, TextField, useAction, useTenantItems } from '../components.tsx';
import { ConsoleContext } from '../context.ts';
import { type MiniStatus, ORDER_STATUSES, type Tag } from '../types.ts';

function Tags() {
  const { api, tenant } = useContext(ConsoleContext);
  const [tags, reload] = useTenantItems<Tag>('/tags');
  const [name, setName] = useState('');
  const [color, setColor] = useState('#41EEBA');
  const { busy, problem, run } = useAction();
  if (!tenant) return null;
  return (
    <Panel title="Tags" headingLevel={3}>
      <form class="row" onSubmit={async (event) => {
        event.preventDefault();
        const tag = await run(() => api.post<Tag>(`/tenants/${seg(tenant.id)}/tags`, { name, color }), (t) => `Tag ${t.name} created.`);
        if (tag) {
          setName('');
          reload();
        }
      }}>
        <TextField label="Tag name" name="name" value={name} onValue={setName} problem={problem} />
        <TextField label="Colour" name="color" value={color} onValue={setColor} problem={problem} hint="#RRGGBB" />
        <div class="field button-field"><button type="submit" disabled={busy}>Create tag</button></div>
      </form>
      <ProblemNotice problem={problem} shownFields={['name', 'color']} />
      {tags.length ? <ul class="chips">{tags.map((t) => <li key={t.id}>{t.name} <code class="muted">{t.color}</code></li>)}</ul> : <p class="empty">No tags.</p>}
    </Panel>
  );
}

function MiniStatuses() {
  const { api, tenant } = useContext(ConsoleContext);
  const [entries, reload] = useTenantItems<MiniStatus>('/ministatuses');
  const [status, setStatus] = useState('FullyDelivered');
  const [name, setName] = useState('');
  const { busy, problem, run } = useAction();
  if (!tenant) return null;
  return (
    <Panel title="Mini-statuses" headingLevel={3}>
      <form class="row" onSubmit={async (event) => {
        event.preventDefault();
        const entry = await run(() => api.post<MiniStatus>(`/tenants/${seg(tenant.id)}/ministatuses`, { status, name }), (m) => `Mini-status ${m.name} added to ${m.status}.`);
        if (entry) {
          setName('');
          reload();
        }
      }}>
        <SelectField label="For status" name="status" value={status} options={ORDER_STATUSES} onValue={setStatus} problem={problem} />
        <TextField label="Label" name="name" value={name} onValue={setName} problem={problem} placeholder="Left with neighbour" />
        <div class="field button-field"><button type="submit" disabled={busy}>Add mini-status</button></div>
      </form>
      <ProblemNotice problem={problem} shownFields={['status', 'name']} />
      {entries.length ? (
        <ul class="chips">
          {entries.map((m) => (
            <li key={m.id} class={m.active ? undefined : 'inactive'}>
              {m.status}: {m.name} {m.active ? (
                <button type="button" class="link" aria-label={`Deactivate ${m.name} of ${m.status}`}
                  onClick={() => run(() => api.del(`/tenants/${seg(tenant.id)}/ministatuses/${seg(m.id)}`), () => `${m.name} deactivated.`).then(reload)}>deactivate</button>
              ) : <span class="muted">(inactive)</span>}
            </li>
          ))}
        </ul>
      ) : <p class="empty">No mini-statuses.</p>}
    </Panel>
  );
}

/** Tags and mini-statuses of the chosen tenant. */
export function Directory() {
  return (
    <section class="panel" aria-label="Directory">
      <h2>Directory</h2>
      <div class="two">
        <Tags />
        <MiniStatuses />
      </div>
    </section>
  );
}
