/**
 * `waybill serve --fixtures FILE` and `--seed N`: the dataset to start from (read and
 * checked, or generated as `waybill fixtures --seed N` would write it), loaded into a
 * tenant of its own whose id follows from the dataset, so the same dataset gets the same
 * tenant and order ids on every start and every machine.
 */
import { readFileSync } from 'node:fs';
import { UsageError } from '../../cli/errors.ts';
import type { Dataset } from '../../fixtures/dataset.ts';
import { datasetProblem } from '../../fixtures/dataset-check.ts';
import { defaultOrders, generateDataset } from '../../fixtures/generate.ts';
import { type SeededTenant, seedTenantWithKeys } from './demo.ts';
import { scopedId } from '../store/dataset.ts';
import type { Store } from '../store/index.ts';

/** A dataset `waybill serve` was asked to start from. */
export interface StartingDataset {
  /** The flag as given, for messages: `--seed 7`, `--fixtures data.json`. */
  flag: string;
  /** What the banner calls it: `fixtures seed 7 (data.json)`. */
  label: string;
  dataset: Dataset;
  /** The id of the tenant that holds it. */
  tenantId: string;
}

/** The dataset of `--fixtures` or `--seed`, or null when neither is given; a file that is no dataset is a UsageError. */
export function startingDataset(options: { fixtures?: string; seed?: number }): StartingDataset | null {
  if (options.fixtures !== undefined) {
    const flag = `--fixtures ${options.fixtures}`;
    const dataset = readDatasetFile(flag, options.fixtures);
    return { flag, label: `fixtures seed ${dataset.seed} (${options.fixtures})`, dataset, tenantId: tenantIdOf(JSON.stringify(dataset)) };
  }
  if (options.seed !== undefined) {
    const dataset = generateDataset({ seed: options.seed, orders: defaultOrders });
    return { flag: `--seed ${options.seed}`, label: `fixtures seed ${options.seed}`, dataset, tenantId: tenantIdOf(JSON.stringify(dataset)) };
  }
  return null;
}

/** The tenant id of a dataset, from its JSON text: equal datasets, equal ids. */
function tenantIdOf(json: string): string {
  return scopedId('waybill-fixtures', json);
}

/** The parsed, checked content of a dataset file; anything wrong is a one-line UsageError starting with `flag`. */
function readDatasetFile(flag: string, file: string): Dataset {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a folder' : code === 'EACCES' ? 'not readable' : (error as Error).message;
    throw new UsageError(`${flag}: ${reason}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${flag}: not JSON (${(error as Error).message.split('\n')[0]})`);
  }
  const problem = datasetProblem(value);
  if (problem !== undefined) throw new UsageError(`${flag}: not a dataset written by waybill fixtures: ${problem}`);
  return value as Dataset;
}

/**
 * Loads `start` into a new tenant of `store` when the database holds no tenant yet, and
 * returns it with its keys. On the database it was loaded into before it loads nothing
 * and returns null; a database holding anything else is refused (`db` names it).
 */
export async function loadStartingDataset(store: Store, start: StartingDataset, db: string): Promise<SeededTenant | null> {
  const tenants = await store.tenants.list();
  if (tenants.some((tenant) => tenant.id === start.tenantId)) return null;
  if (tenants.length > 0) {
    throw new UsageError(`${start.flag}: the database ${db} already holds other data; load a dataset into an empty one (--db :memory:, a new file or a new PostgreSQL database)`);
  }
  const country = start.dataset.warehouses[0]?.address.country ?? 'US';
  try {
    return await seedTenantWithKeys(store, { id: start.tenantId, name: `Fixtures seed ${start.dataset.seed}`, country, keyPrefix: 'fixtures' }, start.dataset);
  } catch (error) {
    // The checks of `datasetProblem` should leave nothing for the database to refuse; if it does, say so in one line.
    // A constraint refused: SQLite's SQLITE_CONSTRAINT_…, PostgreSQL's SQLSTATE class 23.
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('SQLITE_CONSTRAINT') || /^23[0-9A-Z]{3}$/.test(code))) throw new UsageError(`${start.flag}: the database refuses the dataset: ${(error as Error).message}`);
    throw error;
  }
}
