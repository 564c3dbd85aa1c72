/** The sign-in form: the admin token `waybill serve` printed, kept for this tab only. */
import { useState } from 'preact/hooks';
import type { Problem } from '../api.ts';
import { ProblemNotice, TextField } from '../components.tsx';

export function SignIn({ onSignIn, problem }: { onSignIn: (token: string) => Promise<void>; problem: Problem | null }) {
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <main class="sign-in" id="main">
      <h1>waybill console</h1>
      <p>Sign in with the sandbox's admin token: <code>waybill serve</code> prints it at start, and keeps it in <code>.waybill/admin-token.json</code> (<code>WAYBILL_ADMIN_TOKEN</code> fixes it). It stays in this tab only and is sent as a Bearer header, never in a URL.</p>
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
          <p><strong>{problem.status === 401 || problem.status === 403 ? 'The sandbox refused this token.' : 'Signing in failed.'}</strong></p>
          <ProblemNotice problem={problem} />
        </div>
      ) : null}
    </main>
  );
}
