/**
 * The JSON import of orders (D37): each row is judged by the OrderIntake schema and then
 * by the intake rules; refused rows are reported inside the 200 answer as
 * `import.row.invalid`, with the field errors that say why.
 */
import type { FieldError, Json } from '../../spec/load.ts';
import type { OrderIntake } from '../domain/intake-rules.ts';
import { fieldError } from '../http/problem.ts';
import { makeSchemaCheck } from '../http/validate.ts';
import type { Store } from '../store/index.ts';
import type { ImportRow } from '../store/order-intake.ts';
import { bodyOf, type Handler, paramsOf, sendJson } from './respond.ts';

/** What became of one row, as the import answers it. */
interface ImportRowResult {
  row: number;
  externalId: string | null;
  orderId: string | null;
  type: 'import.row.invalid' | null;
  detail: string | null;
  errors: FieldError[];
}

const checkRow = makeSchemaCheck({ $ref: '#/components/schemas/OrderIntake' } as Json, 'sandbox');

/** A refused row's result, its detail the first error's message. */
function refused(result: ImportRowResult, errors: FieldError[]): ImportRowResult {
  const detail = errors.length === 1 ? errors[0]!.message : `${errors.length} fields are invalid.`;
  return { ...result, type: 'import.row.invalid', detail, errors };
}

/** The handler of `importOrders`. */
export function makeImportHandler(store: Store): Handler {
  return function importOrders(_req, res) {
    const tenantId = paramsOf(res)['tenantId']!;
    const { rows } = bodyOf<{ rows: Record<string, unknown>[] }>(res);
    const results = rows.map((row, i): ImportRowResult => ({
      row: i,
      externalId: typeof row['externalId'] === 'string' ? row['externalId'] : null,
      orderId: null,
      type: null,
      detail: null,
      errors: [],
    }));
    const valid: ImportRow[] = [];
    rows.forEach((row, i) => {
      const errors = checkRow(row);
      if (errors.length > 0) results[i] = refused(results[i]!, errors);
      else valid.push({ row: i, intake: row as unknown as OrderIntake });
    });
    for (const outcome of store.intake.importRows(tenantId, valid)) {
      const result = results[outcome.row]!;
      if ('orderId' in outcome) results[outcome.row] = { ...result, orderId: outcome.orderId };
      else {
        const { code, detail, field } = outcome.refusal;
        results[outcome.row] = refused(result, [fieldError(field?.name ?? 'externalId', code, detail, field?.value)]);
      }
    }
    const failed = results.filter((result) => result.type !== null).length;
    sendJson(res, 200, { created: results.length - failed, failed, rows: results });
  };
}
