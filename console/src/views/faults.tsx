/**
 * The chosen tenant's fault rules (D51): the list, oldest first as the server tries them, with
 * how often each matched and fired (read again every few seconds); add one; delete one, or all
 * after a confirmation.
 */
import { useContext, useEffect, useState } from 'preact/hooks';
import { counted } from '../../../cli/counted.ts';
import { seg } from '../api.ts';
import { Panel, ProblemNotice, useAction, useTenantItems, When } from '../components.tsx';
import { ConsoleContext } from '../context.ts';
import type { ApiKey, FaultRule } from '../types.ts';
import { FaultRuleForm } from './fault-form.tsx';
import { NeedTenant } from './need-tenant.tsx';

/** How often the list is read again, for the counts. */
const REFRESH_MS = 4000;

/** The fault's own parameters in words: `503, Retry-After 5 s`, `200–900 ms`, `orders.notFound`. */
function parameters(rule: FaultRule): string {
  if (rule.fault === 'latency' && rule.latencyMs) {
    return rule.latencyMs.min === rule.latencyMs.max ? `${rule.latencyMs.min} ms` : `${rule.latencyMs.min}–${rule.latencyMs.max} ms`;
  }
  if (rule.fault === 'status') {
    const type = rule.problemType === 'idempotency.inFlight' ? ` ${rule.problemType}` : '';
    return `${rule.status}${type}${rule.retryAfterSeconds !== null ? `, Retry-After ${rule.retryAfterSeconds} s` : ''}`;
  }
  if (rule.fault === 'problem') return `${rule.problem ?? ''}${rule.retryAfterSeconds !== null ? `, Retry-After ${rule.retryAfterSeconds} s` : ''}`;
  if (rule.fault === 'stall') return `over ${rule.durationMs ?? 10_000} ms`;
  return '';
}

/** How the rule fires: `1 of 3 left`, `p 0.25`; with its seed when it draws. */
function firing(rule: FaultRule): string {
  const how = rule.times !== null ? `${rule.remaining ?? 0} of ${rule.times} left` : `probability ${rule.probability}`;
  return rule.seed !== null ? `${how}, seed ${rule.seed}` : how;
}

function FaultRuleTable({ rules, keys, busy, onDelete }: { rules: FaultRule[]; keys: ApiKey[]; busy: boolean; onDelete: (rule: FaultRule, n: number) => void }) {
  if (rules.length === 0) return <p class="empty">No fault rules: every call is answered as usual.</p>;
  const keyName = (id: string) => keys.find((k) => k.id === id)?.name;
  return (
    <div class="table-wrap">
      <table>
        <caption class="sr-only">Fault rules, tried oldest first</caption>
        <thead><tr><th scope="col">#</th><th scope="col">Operation</th><th scope="col">Key</th><th scope="col">Fault</th><th scope="col">When</th><th scope="col">Fires</th><th scope="col">Matched</th><th scope="col">Fired</th><th scope="col">Added</th><th scope="col">Actions</th></tr></thead>
        <tbody>
          {rules.map((rule, i) => (
            <tr key={rule.id} class={rule.remaining === 0 ? 'spent' : undefined}>
              <td>{i + 1}</td>
              <th scope="row">{rule.operation}</th>
              <td>{rule.keyId ? <>{keyName(rule.keyId) ?? ''} <span class="mono muted nowrap">{rule.keyId}</span></> : <span class="muted">any key</span>}</td>
              <td><code>{rule.fault}</code> {parameters(rule)}</td>
              <td>{rule.when ?? <span class="muted">—</span>}</td>
              <td>{firing(rule)}</td>
              <td>{rule.matched}</td>
              <td><strong>{rule.fired}</strong></td>
              <td><When utc={rule.createdAtUtc} /></td>
              <td class="actions">
                <button type="button" class="danger" disabled={busy} aria-label={`Delete rule ${i + 1}: ${rule.fault} on ${rule.operation}`} onClick={() => onDelete(rule, i + 1)}>Delete</button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The faults view. */
export function FaultsView(_: { param: string }) {
  const { api, tenant } = useContext(ConsoleContext);
  const [keys] = useTenantItems<ApiKey>('/keys');
  const [rules, setRules] = useState<FaultRule[]>([]);
  const list = useAction();
  const remove = useAction();
  const path = tenant ? `/tenants/${seg(tenant.id)}/faults` : '';
  const load = () => tenant && list.run(() => api.get<{ items: FaultRule[] }>(path)).then((r) => r && setRules(r.items));
  useEffect(() => {
    setRules([]);
    if (!tenant) return;
    void load();
    const timer = setInterval(() => api.get<{ items: FaultRule[] }>(path).then((r) => setRules(r.items), () => undefined), REFRESH_MS);
    return () => clearInterval(timer);
  }, [tenant?.id]);
  if (!tenant) return <NeedTenant />;
  const deleteOne = (rule: FaultRule, n: number) => remove.run(() => api.del(`${path}/${seg(rule.id)}`), () => `Rule ${n} deleted.`).then(load);
  const deleteAll = () => {
    if (confirm(`Delete all fault rules of ${tenant.name} (${counted(rules.length, 'rule')})? Its calls are answered as usual from then on.`)) {
      void remove.run(() => api.del(path), () => 'Every fault rule deleted.').then(load);
    }
  };
  return (
    <>
      <Panel title={`New fault rule for ${tenant.name}`}>
        <FaultRuleForm keys={keys} onAdded={() => void load()} />
      </Panel>
      <Panel title={`Fault rules (${rules.length})`}>
        <p class="hint">A rule strikes after authentication, the rate limit and the scope check, so it never touches another tenant's calls. Every faulted call is marked in the <a href="#log">request log</a>. A single call can ask for a fault itself with <code>Prefer: fault=reset</code> or <code>Prefer: latency=300</code>, or for any problem its operation lists with <code>Prefer: problem=orders.notFound</code>.</p>
        <ProblemNotice problem={list.problem ?? remove.problem} />
        <FaultRuleTable rules={rules} keys={keys} busy={remove.busy} onDelete={deleteOne} />
        <div class="buttons">
          <button type="button" class="secondary" disabled={list.busy} onClick={() => load()}>Refresh</button>
          <button type="button" class="danger" disabled={remove.busy || rules.length === 0} onClick={deleteAll}>Delete all rules</button>
        </div>
      </Panel>
    </>
  );
}
