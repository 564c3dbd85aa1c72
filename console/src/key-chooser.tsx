/** Picks the API key a feed read goes out with: one made in this tab, or a pasted secret. */
import { useContext, useEffect, useId } from 'preact/hooks';
import { ConsoleContext } from './context.ts';
import type { Scope } from './types.ts';

/** The key chooser; `secret` is the chosen key's secret ('' when none), the newest key made in this tab at first. */
export function KeyChooser({ secret, onSecret, scope }: { secret: string; onSecret: (secret: string) => void; scope: Scope }) {
  const { secrets, tenant } = useContext(ConsoleContext);
  const id = useId();
  const mine = secrets.filter((k) => k.tenantId === tenant?.id && k.scopes.includes(scope));
  const chosen = mine.find((k) => k.secret === secret);
  const newest = mine.at(-1);
  // A key made in this tab is the one wanted next: taken when the view opens or the key is made,
  // never over a key chosen or pasted (and "— choose —" stays chosen once picked by hand).
  useEffect(() => {
    if (newest && secret === '') onSecret(newest.secret);
  }, [newest?.id]);
  return (
    <div class="row key-chooser">
      <div class="field">
        <label for={`${id}-made`}>API key made in this tab</label>
        <select id={`${id}-made`} value={chosen?.secret ?? ''} onChange={(event) => onSecret(event.currentTarget.value)}>
          <option value="">{mine.length ? '— choose —' : `none with ${scope} yet`}</option>
          {mine.map((k) => <option key={k.id} value={k.secret}>{k.name} ({k.id})</option>)}
        </select>
      </div>
      <div class="field">
        <label for={`${id}-paste`}>or paste a key</label>
        <input id={`${id}-paste`} type="password" autoComplete="off" value={chosen ? '' : secret} placeholder="wbk_…"
          aria-describedby={`${id}-hint`} onInput={(event) => onSecret(event.currentTarget.value.trim())} />
        <p class="hint" id={`${id}-hint`}>Needs the scope {scope}; sent as X-Api-Key, kept in this tab's memory only.</p>
      </div>
    </div>
  );
}
