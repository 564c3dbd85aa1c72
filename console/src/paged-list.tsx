/**
 * The control plane's lists of a tenant's orders and trips (D87), as the views show them:
 * newest-changed first or oldest first, by status, page by page with the server's cursor.
 */
import { useContext, useEffect, useState } from 'preact/hooks';
import { ConsoleContext } from './context.ts';
import { useAction } from './components.tsx';

/** How a list is sorted (`ListSort` of spec/sandbox.yaml). */
export type Sort = 'newest' | 'oldest';

/** A page of a list (`OrderListPage`, `TripListPage`). */
interface ListPage<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * The items of the list at `path` (null: none) in `statuses` (none: any) and `sort`, read
 * `limit` at a time; read again from the start whenever they or `reload` change. `more` reads
 * the next page.
 */
export function usePagedList<T>(path: string | null, options: { statuses: readonly string[]; sort: Sort; limit: number; reload?: number }) {
  const { api } = useContext(ConsoleContext);
  const [items, setItems] = useState<T[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const { busy, problem, run } = useAction();
  const load = async (after: string | null, before: T[]) => {
    if (path === null) return;
    const page = await run(() => api.get<ListPage<T>>(path, { status: [...options.statuses], sort: options.sort, limit: options.limit, after }));
    if (!page) return;
    setItems([...before, ...page.items]);
    setNext(page.nextCursor);
  };
  useEffect(() => {
    setItems([]);
    setNext(null);
    void load(null, []);
  }, [path, options.statuses.join(), options.sort, options.reload]);
  return { items, busy, problem, more: next === null ? null : () => load(next, items) };
}

/** The "Updated" column's header, which says how the list is sorted. */
export const SortHeader = ({ sort }: { sort: Sort }) => (
  <th scope="col" aria-sort={sort === 'newest' ? 'descending' : 'ascending'}>Updated <span aria-hidden="true">{sort === 'newest' ? '↓' : '↑'}</span></th>
);

/** The toggle beside a list's filters: it says the order the list is in, and flips it. */
export function SortToggle({ sort, onSort }: { sort: Sort; onSort: (sort: Sort) => void }) {
  return (
    <div class="field button-field">
      <button type="button" class="secondary" title="Flip the order" onClick={() => onSort(sort === 'newest' ? 'oldest' : 'newest')}>
        {sort === 'newest' ? 'Newest changed first' : 'Oldest changed first'} <span aria-hidden="true">⇅</span>
      </button>
    </div>
  );
}

/** What a list's caption says of its order. */
export const sortWords = (sort: Sort) => (sort === 'newest' ? 'newest changed first' : 'oldest changed first');
