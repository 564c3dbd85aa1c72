/** What every view shares: the control-plane client, the tenant, the keys made in this tab. */
import { createContext } from 'preact';
import type { ControlPlane, Problem } from './api.ts';
import type { CreatedApiKey, Tenant } from './types.ts';

export interface ConsoleState {
  api: ControlPlane;
  tenants: Tenant[];
  reloadTenants: () => Promise<void>;
  tenant: Tenant | null;
  /** Whether the tenant menu and list show archived tenants (hidden unless asked for). */
  showArchived: boolean;
  setShowArchived: (show: boolean) => void;
  chooseTenant: (tenantId: string | null) => void;
  /** Keys created in this tab, with their secrets: held in memory only, gone on reload. */
  secrets: CreatedApiKey[];
  rememberKey: (key: CreatedApiKey) => void;
  announce: (message: string) => void;
  /** Opens the view at `hash` as an action's result, keeping the notice the action made (moving by hand clears it). */
  openResult: (hash: string) => void;
  signOutOn401: (problem: Problem) => void;
}

export const ConsoleContext = createContext<ConsoleState>(null as unknown as ConsoleState);
