/** Taking in orders: one by one with its lines and tags, or a JSON import of rows. */
import { useContext, useState } from 'preact/hooks';
import { seg } from '../api.ts';
import { numberOr, ProblemNotice, SelectField, TextField, useAction, useTenantItems } from '../components.tsx';
import { ConsoleContext } from '../context.ts';
import { type ImportResult, LINE_ROLES, ORDER_TYPES, type OrderDetail, type Tag } from '../types.ts';
import { counted } from '../words.tsx';

/** The sandbox does not look warehouse and product ids up (D36): any uuid serves. */
const SAMPLE_WAREHOUSE = '5c8e7d6f-1a2b-4c3d-9e8f-7a6b5c4d3e2f';
const SAMPLE_PRODUCT = '0d6b9a3e-2c4f-4e1a-8b7d-9f0e1c2a3b4d';

interface LineDraft {
  warehouseId: string;
  productId: string;
  quantity: string;
  role: string;
  price: string;
}

const newLine = (): LineDraft => ({ warehouseId: SAMPLE_WAREHOUSE, productId: SAMPLE_PRODUCT, quantity: '1', role: 'Delivery', price: '0' });


/** The form taking in one order; `onCreated` hears of each order it made. */
export function OrderCreateForm({ onCreated }: { onCreated?: () => void }) {
  const { api, tenant } = useContext(ConsoleContext);
  const [tags] = useTenantItems<Tag>('/tags');
  const [externalId, setExternalId] = useState('');
  const [type, setType] = useState('Delivery');
  const [customId, setCustomId] = useState('');
  const [related, setRelated] = useState('');
  const [tagIds, setTagIds] = useState<string[]>([]);
  const [lines, setLines] = useState<LineDraft[]>([newLine()]);
  const { busy, problem, run } = useAction();
  if (!tenant) return null;
  const setLine = (i: number, change: Partial<LineDraft>) => setLines((now) => now.map((line, j) => (j === i ? { ...line, ...change } : line)));
  return (
    <form onSubmit={async (event) => {
      event.preventDefault();
      const body = {
        externalId,
        type,
        customId: customId || null,
        relatedToOrderId: related || null,
        tags: tagIds,
        lines: lines.map((l) => ({ warehouseId: l.warehouseId, productId: l.productId, quantity: numberOr(l.quantity), role: l.role, price: numberOr(l.price) })),
      };
      const order = await run(() => api.post<OrderDetail>(`/tenants/${seg(tenant.id)}/orders`, body), (o) => `Order ${o.externalId} created in status ${o.status}.`);
      if (order) {
        onCreated?.();
        setExternalId('');
        setCustomId('');
        setLines([newLine()]);
      }
    }}>
      <div class="row">
        <TextField label="External id" name="externalId" value={externalId} onValue={setExternalId} problem={problem} placeholder="SHOP-1001" />
        <SelectField label="Type" name="type" value={type} options={ORDER_TYPES} onValue={setType} problem={problem} />
        <TextField label="Custom id" name="customId" value={customId} onValue={setCustomId} problem={problem} hint="Optional" />
        <TextField label="Returns order" name="relatedToOrderId" value={related} onValue={setRelated} problem={problem} hint="A Return's order id" />
      </div>
      {tags.length ? (
        <fieldset class="field">
          <legend>Tags</legend>
          {tags.map((tag) => (
            <label class="check" key={tag.id}>
              <input type="checkbox" checked={tagIds.includes(tag.id)} onChange={(event) => setTagIds((now) => (event.currentTarget.checked ? [...now, tag.id] : now.filter((t) => t !== tag.id)))} />
              {tag.name} <code class="muted">{tag.color}</code>
            </label>
          ))}
          <ProblemNotice problem={problem && problem.errors?.some((e) => e.field.startsWith('tags')) ? { ...problem, errors: problem.errors.filter((e) => e.field.startsWith('tags')) } : null} />
        </fieldset>
      ) : <p class="hint">No tags yet: create them under Tags below to tag new orders.</p>}
      {lines.map((line, i) => (
        <fieldset class="line" key={i}>
          <legend>Line {i + 1}</legend>
          <div class="row">
            <TextField label="Warehouse id" name={`lines[${i}].warehouseId`} value={line.warehouseId} onValue={(v) => setLine(i, { warehouseId: v })} problem={problem} />
            <TextField label="Product id" name={`lines[${i}].productId`} value={line.productId} onValue={(v) => setLine(i, { productId: v })} problem={problem} />
            <TextField label="Quantity" name={`lines[${i}].quantity`} value={line.quantity} onValue={(v) => setLine(i, { quantity: v })} problem={problem} inputMode="numeric" />
            <SelectField label="Role" name={`lines[${i}].role`} value={line.role} options={LINE_ROLES} onValue={(v) => setLine(i, { role: v })} problem={problem} />
            <TextField label="Price" name={`lines[${i}].price`} value={line.price} onValue={(v) => setLine(i, { price: v })} problem={problem} />
          </div>
          {lines.length > 1 ? <button type="button" class="secondary" onClick={() => setLines((now) => now.filter((_, j) => j !== i))}>Remove line {i}</button> : null}
        </fieldset>
      ))}
      <div class="buttons">
        <button type="button" class="secondary" onClick={() => setLines((now) => [...now, newLine()])}>Add a line</button>
        <button type="submit" disabled={busy}>Create order</button>
      </div>
      <ProblemNotice problem={problem} shownFields={['externalId', 'type', 'customId', 'relatedToOrderId', 'tags', ...lines.flatMap((_, i) => ['warehouseId', 'productId', 'quantity', 'role', 'price'].map((f) => `lines[${i}].${f}`))]} />
    </form>
  );
}

const SAMPLE_IMPORT = JSON.stringify({
  rows: [
    { externalId: 'IMPORT-1', type: 'Delivery', lines: [{ warehouseId: SAMPLE_WAREHOUSE, productId: SAMPLE_PRODUCT, quantity: 1 }] },
    { externalId: 'IMPORT-2', type: 'Delivery', lines: [] },
  ],
}, null, 2);

/** The form importing JSON rows of orders; `onCreated` hears of each import that made some. */
export function OrderImportForm({ onCreated }: { onCreated?: () => void }) {
  const { api, tenant } = useContext(ConsoleContext);
  const [text, setText] = useState(SAMPLE_IMPORT);
  const [result, setResult] = useState<ImportResult | null>(null);
  const { busy, problem, setProblem, run } = useAction();
  if (!tenant) return null;
  return (
    <form onSubmit={async (event) => {
      event.preventDefault();
      setResult(null);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch (error) {
        setProblem({ type: 'about:blank', title: 'Not JSON', status: 0, detail: `The import is not JSON: ${String(error)}` });
        return;
      }
      const answer = await run(() => api.post<ImportResult>(`/tenants/${seg(tenant.id)}/order-imports`, body), (r) => `Import: ${r.created} created, ${r.failed} refused.`);
      if (answer) {
        setResult(answer);
        if (answer.created > 0) onCreated?.();
      }
    }}>
      <TextField label="Rows (JSON)" name="rows" value={text} onValue={setText} problem={problem} multiline rows={8} hint='{"rows": [order intake, …]}, at most 1000 rows' />
      <button type="submit" disabled={busy}>Import</button>
      <ProblemNotice problem={problem} shownFields={['rows']} />
      {result ? (
        <div class="table-wrap">
          <table>
            <caption>{result.created} created, {result.failed} refused</caption>
            <thead><tr><th scope="col">Row</th><th scope="col">External id</th><th scope="col">Outcome</th></tr></thead>
            <tbody>
              {result.rows.map((row) => (
                <tr key={row.row}>
                  <td>{counted(row.row)}</td>
                  <td>{row.externalId ?? <span class="muted">—</span>}</td>
                  <td>{row.orderId ? <a href={`#orders/${row.orderId}`}>created</a> : (
                    <>
                      <code>{row.type}</code> {row.detail}
                      <ul class="field-errors">{row.errors.map((e) => <li key={e.field + e.code}><code>{e.field}</code>: {e.message} <code>{e.code}</code></li>)}</ul>
                    </>
                  )}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </form>
  );
}
