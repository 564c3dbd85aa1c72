/**
 * The JSON import of orders (D37): each row is judged by the OrderIntake schema and then
 * by the intake rules; refused rows are reported inside the 200 answer as
 * `import.row.invalid`, with the field errors that say why, at most 50 a row and 1,000 in
 * the answer (D59).
 */
import type { FieldError, Json } from '../../spec/load.ts';
import type { OrderIntake } from './intake-rules.ts';
import type { components } from '../../spec/sandbox-types.ts';
import { errorsDetail, type Judgement, MAX_FIELD_ERRORS } from '../http/field-errors.ts';
import { fieldError } from '../http/problem.ts';
import { makeSchemaCheck } from '../http/validate.ts';
import type { Store } from '../store/index.ts';
import type { ImportRow } from './intake.ts';
import { bodyOf, type Handler, paramsOf, sendJson } from '../control-plane/respond.ts';

/** At most this many field errors are listed in one import's answer, each refused row listing at least its first (D59). */
export const MAX_IMPORT_FIELD_ERRORS = 1000;

/** What became of one row, as the import answers it (`ImportRowResult` of spec/sandbox.yaml). */
type ImportRowResult = components['schemas']['ImportRowResult'];

/** A refused row: what it was judged, and how many of its errors the answer lists. */
interface Refusal {
  judgement: Judgement;
  listed: number;
}

const checkRow = makeSchemaCheck({ $ref: '#/components/schemas/OrderIntake' } as Json, 'sandbox');

/** A refused row's result: its first `listed` errors, and a detail saying how many more there are. */
function refused(result: ImportRowResult, { judgement, listed }: Refusal): ImportRowResult {
  const { errors, total } = judgement;
  const detail = total === null && listed === 1 ? `${errors[0]!.message} (the rest of the row was not judged in so large an import)` : errorsDetail(errors[0]!, errors.length, total, listed, 'row');
  return { ...result, type: 'import.row.invalid', detail, errors: errors.slice(0, listed) };
}

// requirement: int.limits.import-rows
// requirement: D37
// requirement: D59
/** The handler of `importOrders`. */
export function makeImportHandler(store: Store): Handler {
  return async function importOrders(_req, res) {
    const tenantId = paramsOf(res)['tenantId']!;
    const { rows } = bodyOf<{ rows: Record<string, unknown>[] }>(res);
    const refusals = new Map<number, Refusal>();
    const valid: ImportRow[] = [];
    // Each row may list what the budget leaves once one error is kept back for every row not
    // yet charged (a row the schema takes may still be refused by the intake rules): the answer
    // never lists more than MAX_IMPORT_FIELD_ERRORS, and a row allowed one is judged no further.
    let budget = MAX_IMPORT_FIELD_ERRORS;
    rows.forEach((row, i) => {
      const allowance = Math.max(1, Math.min(MAX_FIELD_ERRORS, budget - (rows.length - 1 - refusals.size)));
      const judgement = checkRow(row, allowance);
      if (judgement.errors.length === 0) return void valid.push({ row: i, intake: row as unknown as OrderIntake });
      const listed = Math.min(allowance, judgement.errors.length);
      budget -= listed;
      refusals.set(i, { judgement, listed });
    });
    const orderIds = new Map<number, string>();
    for (const outcome of await store.intake.importRows(tenantId, valid)) {
      if ('orderId' in outcome) orderIds.set(outcome.row, outcome.orderId);
      else {
        const { code, detail, field } = outcome.refusal;
        refusals.set(outcome.row, { judgement: { errors: [fieldError(field?.name ?? 'externalId', code, detail, field?.value)], total: 1 }, listed: 1 });
      }
    }
    const results = rows.map((row, i): ImportRowResult => {
      const result = { row: i, externalId: typeof row['externalId'] === 'string' ? row['externalId'] : null, orderId: orderIds.get(i) ?? null, type: null, detail: null, errors: [] };
      const refusal = refusals.get(i);
      return refusal === undefined ? result : refused(result, refusal);
    });
    sendJson(res, 200, { created: orderIds.size, failed: refusals.size, rows: results });
  };
}
