/**
 * The sign-in form: the admin token `waybill serve` printed, kept for this tab only. The
 * banner's sign-in link signs in without it (`linking` while that runs; `linkRefused` when the sandbox refused the link's token).
 */
import { useState } from 'preact/hooks';
import type { Problem } from '../api.ts';
import { ProblemNotice, TextField } from '../components.tsx';

export function SignIn({ onSignIn, problem, linking, linkRefused }: { onSignIn: (token: string) => Promise<void>; problem: Problem | null; linking: boolean; linkRefused: boolean }) {
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <main class="sign-in" id="main">
      <h1>waybill console</h1>
      <p>Open the sign-in link <code>waybill serve</code> prints at start, or sign in with the sandbox's admin token: the banner prints it, and a sandbox over a database file keeps it in <code>.waybill/admin-token.json</code> (<code>WAYBILL_ADMIN_TOKEN</code> fixes it). It stays in this tab only and is sent as a Bearer header, never to the server in an address.</p>
      <p>New to the sandbox? The <a href="/docs/guides/integrator">integrator guide</a> walks through it, and <a href="/docs">the API reference</a> is served here too.</p>
      {linking ? <p role="status">Signing in with the link's token…</p> : null}
      <form onSubmit={async (event) => {
        event.preventDefault();
        setBusy(true);
        await onSignIn(token.trim());
        setBusy(false);
      }}>
        <TextField label="Admin token" name="token" type="password" value={token} onValue={setToken} required autoComplete="off" />
        <button type="submit" disabled={busy || !token.trim()}>Sign in</button>
      </form>
      {problem ? (
        <div class="sign-in-refused">
          <p><strong>{problem.status === 401 || problem.status === 403 ? 'Wrong admin token: the sandbox refused it.' : 'Signing in failed.'}</strong></p>
          {linkRefused ? <p>The token came from a sign-in link: a sandbox makes a new token at every start unless <code>WAYBILL_ADMIN_TOKEN</code> fixes it, so use the link of its latest banner.</p> : null}
          <ProblemNotice problem={problem} />
        </div>
      ) : null}
    </main>
  );
}
