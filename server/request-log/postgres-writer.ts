/**
 * What the request log on PostgreSQL does with a batch (D48, D78), on its writer thread: cut
 * and redact each entry (writer.ts), insert them a statement per 50 rows, and prune each
 * tenant it touched to its last `retention` entries, `pruneStep` rows a statement, before
 * the next batch.
 */
import type { PostgresLogTable } from './postgres-table.ts';
import type { LogSummaryRow } from './store.ts';
import { type CapturedRequest, entryOf, ROWS_PER_TRANSACTION, summaryOf } from './writer.ts';

/** The writing half of the request log over `table`; one batch at a time (the caller waits for each). */
export function makePostgresLogWriter(table: PostgresLogTable, options: { retention: number; pruneStep: number }) {
  const { retention, pruneStep } = options;
  // An estimate of each tenant's entry count (a count on its first write, then kept up), to prune only when over.
  const counts = new Map<string, number>();

  /** Deletes the tenant's entries beyond its last `retention` (another process may prune it too). */
  async function prune(tenantId: string): Promise<void> {
    const upTo = await table.cutoff(tenantId, retention);
    if (upTo !== undefined) while ((await table.deleteStep(tenantId, upTo, pruneStep)) === pruneStep);
    counts.set(tenantId, upTo === undefined ? await table.count(tenantId) : retention);
  }

  return {
    /** Writes `batch` and prunes what it made due; answers the summaries of the entries of the `listened` tenants, oldest first. */
    async write(batch: readonly CapturedRequest[], listened: ReadonlySet<string>): Promise<LogSummaryRow[]> {
      const summaries: LogSummaryRow[] = [];
      const written = new Map<string, number>();
      for (let start = 0; start < batch.length; start += ROWS_PER_TRANSACTION) {
        const entries = batch.slice(start, start + ROWS_PER_TRANSACTION).map(entryOf);
        const ids = await table.insert(entries);
        entries.forEach((entry, i) => {
          written.set(entry.tenantId, (written.get(entry.tenantId) ?? 0) + 1);
          if (listened.has(entry.tenantId)) summaries.push(summaryOf(ids[i]!, entry));
        });
      }
      for (const [tenantId, count] of written) {
        const known = counts.get(tenantId);
        const total = known === undefined ? await table.count(tenantId) : known + count;
        counts.set(tenantId, total);
        if (total > retention) await prune(tenantId);
      }
      return summaries;
    },
    /** Deletes every entry and forgets the counts (the sandbox's reset). */
    async clear(): Promise<void> {
      counts.clear();
      await table.clear();
    },
  };
}
