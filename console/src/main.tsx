/** The waybill console: sign-in with the admin token, then one view per part of the sandbox. */
import '../app.css';
import { type FunctionComponent, render } from 'preact';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiProblem, controlPlane, type Problem } from './api.ts';
import { ConsoleContext, type ConsoleState } from './context.ts';
import { clearSession, storedTenant, storedToken, storeTenant, storeToken, takeTokenFromAddress } from './session.ts';
import type { CreatedApiKey, Tenant } from './types.ts';
import { FeedView } from './views/feed.tsx';
import { KeysView } from './views/keys.tsx';
import { OrdersView } from './views/orders.tsx';
import { RequestLogView } from './views/request-log.tsx';
import { SignIn } from './views/sign-in.tsx';
import { shownTenants, TenantsView } from './views/tenants.tsx';
import { TripsView } from './views/trips.tsx';

/** How long a notice stays on screen (screen readers have read it by then). */
const NOTICE_MS = 8000;
/** The token of the banner's sign-in link, taken out of the address before the first render. */
const LINKED_TOKEN = takeTokenFromAddress();

type View = FunctionComponent<{ param: string }>;

/** A view whose code loads the first time it is shown (its own chunk), so that the first load stays small. */
function onDemand(load: () => Promise<View>): View {
  let loaded: View | null = null;
  return function OnDemand(props) {
    const [, setReady] = useState(false);
    const [failed, setFailed] = useState<string | null>(null);
    useEffect(() => {
      if (!loaded) load().then((view) => { loaded = view; setReady(true); }, (error) => setFailed(String(error)));
    }, []);
    if (failed) return <p class="problem" role="alert">This view did not load: {failed}</p>;
    const Loaded = loaded;
    return Loaded ? <Loaded {...props} /> : <p class="muted">Loading…</p>;
  };
}

const VIEWS = [
  { id: 'tenants', label: 'Tenants', View: TenantsView },
  { id: 'keys', label: 'Keys', View: KeysView },
  { id: 'orders', label: 'Orders', View: OrdersView },
  { id: 'trips', label: 'Trips', View: TripsView },
  { id: 'feed', label: 'Feed', View: FeedView },
  { id: 'log', label: 'Request log', View: RequestLogView },
  { id: 'faults', label: 'Faults', View: onDemand(() => import('./views/faults.tsx').then((m) => m.FaultsView)) },
  { id: 'clock', label: 'Clock', View: onDemand(() => import('./views/clock.tsx').then((m) => m.ClockView)) },
  { id: 'simulation', label: 'Simulation', View: onDemand(() => import('./views/simulation.tsx').then((m) => m.SimulationView)) },
] as const;

/** The view named by the location hash (`#orders/<id>` → orders, `<id>`); never carries a secret. */
function route(): { view: string; param: string } {
  const [view = 'tenants', ...rest] = location.hash.replace(/^#\/?/, '').split('/');
  return { view: VIEWS.some((v) => v.id === view) ? view : 'tenants', param: decodeURIComponent(rest.join('/')) };
}

function App() {
  const [token, setToken] = useState<string | null>(LINKED_TOKEN === null ? storedToken() : null);
  const [linking, setLinking] = useState(LINKED_TOKEN !== null);
  const [signInProblem, setSignInProblem] = useState<Problem | null>(null);
  const [linkRefused, setLinkRefused] = useState(false);
  const [showArchived, setShowArchived] = useState(false);
  const [tenants, setTenants] = useState<Tenant[]>([]);
  const [tenantId, setTenantId] = useState<string | null>(storedTenant());
  const [secrets, setSecrets] = useState<CreatedApiKey[]>([]);
  const [where, setWhere] = useState(route());
  const [message, setMessage] = useState('');
  const main = useRef<HTMLElement>(null);
  const noticeTimers = useRef<ReturnType<typeof setTimeout>[]>([]);
  const keepNotice = useRef(false);
  const clearNotice = () => {
    noticeTimers.current.forEach(clearTimeout);
    noticeTimers.current = [];
    setMessage('');
  };

  useEffect(() => {
    const onHash = () => {
      // A sign-in link opened in a tab that already shows the console changes only the fragment.
      const linked = takeTokenFromAddress();
      if (linked !== null) void signIn(linked, true);
      // A notice speaks of the view it came from: it goes with it, unless an action opened this view.
      if (!keepNotice.current) clearNotice();
      keepNotice.current = false;
      setWhere(route());
      // The new view starts at the top, the header in sight: focus alone would scroll the header
      // away on a phone, where it takes a good part of the screen.
      main.current?.focus({ preventScroll: true });
      scrollTo({ top: 0 });
    };
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);

  const api = useMemo(() => controlPlane(token ?? ''), [token]);
  const signOut = useCallback((problem: Problem | null = null) => {
    clearSession();
    setToken(null);
    setTenants([]);
    setSecrets([]);
    setTenantId(null);
    setSignInProblem(problem);
  }, []);

  const reloadTenants = useCallback(async () => {
    const list = await api.get<{ items: Tenant[] }>('/tenants');
    setTenants(list.items);
  }, [api]);

  async function signIn(candidate: string, viaLink = false): Promise<void> {
    setLinkRefused(viaLink);
    try {
      const list = await controlPlane(candidate).get<{ items: Tenant[] }>('/tenants');
      storeToken(candidate);
      setSignInProblem(null);
      setTenants(list.items);
      setToken(candidate);
    } catch (error) {
      setSignInProblem(error instanceof ApiProblem ? error.problem : { type: 'about:blank', title: 'Error', status: 0, detail: String(error) });
    }
  }

  useEffect(() => {
    if (LINKED_TOKEN !== null) void signIn(LINKED_TOKEN, true).finally(() => setLinking(false));
  }, []);

  useEffect(() => {
    if (token && tenants.length === 0) reloadTenants().catch((error) => error instanceof ApiProblem && error.problem.status === 401 && signOut(error.problem));
  }, [token]);

  if (!token) return <SignIn onSignIn={signIn} problem={signInProblem} linking={linking} linkRefused={linkRefused} />;

  const state: ConsoleState = {
    api,
    tenants,
    reloadTenants,
    tenant: tenants.find((t) => t.id === tenantId) ?? null,
    chooseTenant: (id) => {
      storeTenant(id);
      setTenantId(id);
    },
    secrets,
    rememberKey: (key) => setSecrets((keys) => [...keys, key]),
    showArchived,
    setShowArchived,
    announce: (text) => {
      // The same text twice is still announced; the notice goes after a while.
      clearNotice();
      noticeTimers.current = [setTimeout(() => setMessage(text), 30), setTimeout(() => setMessage(''), NOTICE_MS)];
    },
    openResult: (hash) => {
      keepNotice.current = location.hash !== hash;
      location.hash = hash;
    },
    signOutOn401: (problem) => {
      if (problem.status === 401 && /admin token/i.test(problem.detail ?? '')) signOut(problem);
    },
  };
  const current = VIEWS.find((v) => v.id === where.view) ?? VIEWS[0];
  const View = current.View;
  return (
    <ConsoleContext.Provider value={state}>
      <a class="skip" href="#main" onClick={(event) => { event.preventDefault(); main.current?.focus(); }}>Skip to content</a>
      <header class="top">
        <p class="brand">waybill <span>console</span></p>
        <nav aria-label="Views">
          <ul>
            {VIEWS.map((v) => (
              <li key={v.id}><a href={`#${v.id}`} aria-current={v.id === current.id ? 'page' : undefined}>{v.label}</a></li>
            ))}
          </ul>
        </nav>
        <div class="tenant-pick">
          <label for="tenant-pick">Tenant</label>
          <select id="tenant-pick" value={tenantId ?? ''} title={state.tenant ? `${state.tenant.name} (${state.tenant.state})` : undefined} onChange={(event) => state.chooseTenant(event.currentTarget.value || null)}>
            <option value="">— choose —</option>
            {shownTenants(tenants, showArchived, tenantId).map((t) => <option key={t.id} value={t.id}>{t.name} ({t.state})</option>)}
          </select>
        </div>
        <a class="help" href="/docs/guides">Guides</a>
        <button type="button" class="secondary" onClick={() => signOut()}>Sign out</button>
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        <h1>{current.label}</h1>
        {/* In the flow under the heading, not floating: a notice never covers a control. */}
        <div class="live" role="status" aria-live="polite">{message}</div>
        <View param={where.param} />
      </main>
    </ConsoleContext.Provider>
  );
}

render(<App />, document.getElementById('app')!);
