/** API keys of the chosen tenant: create with scopes and rate limit (the secret shown once), revoke. */
import { useContext, useEffect, useId, useState } from 'preact/hooks';
import { errorsFor, seg } from '../api.ts';
import { CopyButton, FieldErrors, Panel, ProblemNotice, TextField, useAction, When } from '../components.tsx';
import { ConsoleContext } from '../context.ts';
import { type ApiKey, type CreatedApiKey, type Scope, SCOPES } from '../types.ts';
import { NeedTenant } from './need-tenant.tsx';

function SecretOnce({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  return (
    <div class="secret" role="region" aria-label="The new key's secret">
      <p><strong>Key {created.name} created.</strong> Its secret is shown this once; only its hash is stored. This tab remembers it until it closes, for the feed view.</p>
      <p class="secret-line"><code id="new-key-secret">{created.secret}</code> <CopyButton text={created.secret} label="Copy secret" /></p>
      <button type="button" class="secondary" onClick={onDone}>I have copied it</button>
    </div>
  );
}

function KeyCreateForm({ tenantId, onCreated }: { tenantId: string; onCreated: (key: CreatedApiKey) => void }) {
  const { api } = useContext(ConsoleContext);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['orders:read', 'trips:read']);
  const [rate, setRate] = useState('600');
  const { busy, problem, run } = useAction();
  const scopeId = useId();
  const scopeErrors = errorsFor(problem, 'scopes');
  return (
    <form onSubmit={async (event) => {
      event.preventDefault();
      const rateLimitPerMinute = rate.trim() === '' ? undefined : Number(rate);
      const created = await run(() => api.post<CreatedApiKey>(`/tenants/${seg(tenantId)}/keys`, { name, scopes, rateLimitPerMinute }), (k) => `Key ${k.name} created; copy its secret now.`);
      if (created) {
        onCreated(created);
        setName('');
      }
    }}>
      <div class="row">
        <TextField label="Name" name="name" value={name} onValue={setName} problem={problem} />
        <TextField label="Rate limit per minute" name="rateLimitPerMinute" value={rate} onValue={setRate} problem={problem} type="number" hint="1 to 6000; default 600" />
      </div>
      <fieldset class={`field${scopeErrors.length ? ' invalid' : ''}`} aria-describedby={scopeErrors.length ? `${scopeId}-errors` : undefined}>
        <legend>Scopes</legend>
        {SCOPES.map((scope) => (
          <label class="check" key={scope}>
            <input type="checkbox" name="scopes" value={scope} checked={scopes.includes(scope)}
              onChange={(event) => setScopes((now) => (event.currentTarget.checked ? [...now, scope] : now.filter((s) => s !== scope)))} />
            {scope}
          </label>
        ))}
        <FieldErrors id={`${scopeId}-errors`} errors={scopeErrors} />
      </fieldset>
      <button type="submit" disabled={busy}>Create key</button>
      <ProblemNotice problem={problem} shownFields={['name', 'scopes', 'rateLimitPerMinute']} />
    </form>
  );
}

/** The keys view. */
export function KeysView(_: { param: string }) {
  const { api, tenant, rememberKey } = useContext(ConsoleContext);
  const [keys, setKeys] = useState<ApiKey[]>([]);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const list = useAction();
  const revoke = useAction();
  const load = () => tenant && list.run(() => api.get<{ items: ApiKey[] }>(`/tenants/${seg(tenant.id)}/keys`)).then((r) => r && setKeys(r.items));
  useEffect(() => {
    setKeys([]);
    setCreated(null);
    void load();
  }, [tenant?.id]);
  if (!tenant) return <NeedTenant />;
  return (
    <>
      <Panel title={`New key of ${tenant.name}`}>
        {created ? <SecretOnce created={created} onDone={() => setCreated(null)} /> : null}
        <KeyCreateForm tenantId={tenant.id} onCreated={(key) => {
          rememberKey(key);
          setCreated(key);
          void load();
        }} />
      </Panel>
      <Panel title={`Keys (${keys.length})`}>
        <ProblemNotice problem={list.problem ?? revoke.problem} />
        {keys.length === 0 ? <p class="empty">No keys yet.</p> : (
          <div class="table-wrap">
            <table class="stack">
              <caption class="sr-only">Keys</caption>
              <thead><tr><th scope="col">Name</th><th scope="col">Id</th><th scope="col">Scopes</th><th scope="col">Per minute</th><th scope="col">Created</th><th scope="col">Revoked</th><th scope="col">Actions</th></tr></thead>
              <tbody>
                {keys.map((key) => (
                  <tr key={key.id}>
                    <th scope="row">{key.name}</th>
                    <td class="mono nowrap" data-label="Id">{key.id}</td>
                    <td data-label="Scopes">{key.scopes.join(', ') || <span class="muted">none</span>}</td>
                    <td data-label="Per minute">{key.rateLimitPerMinute}</td>
                    <td data-label="Created"><When utc={key.createdAtUtc} /></td>
                    <td data-label="Revoked"><When utc={key.revokedAtUtc} /></td>
                    <td class="actions">
                      {key.revokedAtUtc ? <span class="muted">Revoked</span> : (
                        <button type="button" class="danger" disabled={revoke.busy} aria-label={`Revoke ${key.name}`}
                          onClick={() => revoke.run(() => api.post<ApiKey>(`/tenants/${seg(tenant.id)}/keys/${seg(key.id)}/revoke`), (k) => `Key ${k.name} revoked.`).then(load)}>Revoke</button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Panel>
    </>
  );
}
