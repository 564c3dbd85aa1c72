/** Tenants: the list with its state filter (archived ones hidden unless asked for), a create form, and the lifecycle moves. */
import { useContext, useState } from 'preact/hooks';
import { seg } from '../api.ts';
import { Panel, ProblemNotice, SelectField, Status, TextField, useAction, When } from '../components.tsx';
import { ConsoleContext } from '../context.ts';
import { TENANT_STATES, type Tenant } from '../types.ts';

/**
 * The tenants a menu or list offers: archived ones only when `showArchived` (a provisioned
 * conformance run archives its tenants at its end, and they would bury the live ones), the
 * chosen tenant `keep` always.
 */
export function shownTenants(tenants: Tenant[], showArchived: boolean, keep: string | null): Tenant[] {
  return showArchived ? tenants : tenants.filter((t) => t.state !== 'Archived' || t.id === keep);
}

function TenantCreateForm() {
  const { api, reloadTenants, chooseTenant } = useContext(ConsoleContext);
  const [name, setName] = useState('');
  const [country, setCountry] = useState('');
  const [skills, setSkills] = useState('');
  const { busy, problem, run } = useAction();
  return (
    <form onSubmit={async (event) => {
      event.preventDefault();
      const body = { name, country, skills: skills.split(',').map((s) => s.trim()).filter(Boolean) };
      const created = await run(() => api.post<Tenant>('/tenants', body), (t) => `Tenant ${t.name} created; it is the tenant you work with now.`);
      if (created) {
        await reloadTenants();
        chooseTenant(created.id);
        setName('');
        setCountry('');
        setSkills('');
      }
    }}>
      <div class="row">
        <TextField label="Name" name="name" value={name} onValue={setName} problem={problem} />
        <TextField label="Country" name="country" value={country} onValue={setCountry} problem={problem} hint="ISO 3166-1 alpha-2, e.g. NL" />
        <TextField label="Skills" name="skills" value={skills} onValue={setSkills} problem={problem} hint="Comma-separated, optional" />
      </div>
      <button type="submit" disabled={busy}>Create tenant</button>
      <ProblemNotice problem={problem} shownFields={['name', 'country', 'skills']} />
    </form>
  );
}

function TenantTable({ tenants }: { tenants: Tenant[] }) {
  const { api, reloadTenants, tenant: current, chooseTenant } = useContext(ConsoleContext);
  const { busy, problem, run } = useAction();
  const move = (tenant: Tenant, to: 'suspend' | 'reactivate' | 'archive') =>
    run(() => api.post<Tenant>(`/tenants/${seg(tenant.id)}/${to}`), (t) => `${t.name} is ${t.state} now.`).then(() => reloadTenants());
  if (tenants.length === 0) return <p class="empty">No tenants{current === null ? '' : ' in this state'}.</p>;
  return (
    <>
      <ProblemNotice problem={problem} />
      <div class="table-wrap">
        <table class="stack">
          <caption class="sr-only">Tenants</caption>
          <thead><tr><th scope="col">Name</th><th scope="col">Country</th><th scope="col">State</th><th scope="col">Skills</th><th scope="col">Created</th><th scope="col">Actions</th></tr></thead>
          <tbody>
            {tenants.map((t) => (
              <tr key={t.id} class={current?.id === t.id ? 'selected' : undefined}>
                <th scope="row">{t.name}<div class="muted mono nowrap">{t.id}</div></th>
                <td data-label="Country">{t.country}</td>
                <td data-label="State"><Status value={t.state} /></td>
                <td data-label="Skills">{t.skills.join(', ') || <span class="muted">—</span>}</td>
                <td data-label="Created"><When utc={t.createdAtUtc} /></td>
                <td class="actions">
                  {current?.id === t.id ? <span class="muted">Working with it</span> : <button type="button" class="secondary" onClick={() => chooseTenant(t.id)} aria-label={`Work with it: ${t.name}`}>Work with it</button>}
                  {t.state === 'Active' ? <button type="button" class="secondary" disabled={busy} onClick={() => move(t, 'suspend')} aria-label={`Suspend ${t.name}`}>Suspend</button> : null}
                  {t.state === 'Suspended' ? <button type="button" class="secondary" disabled={busy} onClick={() => move(t, 'reactivate')} aria-label={`Reactivate ${t.name}`}>Reactivate</button> : null}
                  {t.state !== 'Archived' ? <button type="button" class="danger" disabled={busy} onClick={() => confirm(`Archive ${t.name}? Archived is final.`) && move(t, 'archive')} aria-label={`Archive ${t.name}`}>Archive</button> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** The tenants view. */
export function TenantsView(_: { param: string }) {
  const { tenants, tenant, showArchived, setShowArchived } = useContext(ConsoleContext);
  const [state, setState] = useState('');
  // Asking for the Archived state shows them, whatever the switch says.
  const shown = state ? tenants.filter((t) => t.state === state) : shownTenants(tenants, showArchived, tenant?.id ?? null);
  const archived = tenants.filter((t) => t.state === 'Archived').length;
  return (
    <>
      <Panel title="New tenant"><TenantCreateForm /></Panel>
      <Panel title={`Tenants (${shown.length})`}>
        <div class="row filters">
          <SelectField label="State" name="state" value={state} options={TENANT_STATES} onValue={setState} blank={showArchived ? 'Any state' : 'Any state but Archived'} />
          <label class="check toggle">
            <input type="checkbox" checked={showArchived} onChange={(event) => setShowArchived(event.currentTarget.checked)} />
            Show archived tenants ({archived}), here and in the Tenant menu
          </label>
        </div>
        <TenantTable tenants={shown} />
      </Panel>
    </>
  );
}
