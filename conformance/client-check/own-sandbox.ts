/**
 * The sandbox `waybill client-check` starts for itself when no `--target` is given: the
 * reference sandbox in this process, in memory, on a free loopback port, with a fresh admin
 * token and the request log on. Loaded only then, so a run against `--target` never loads the server.
 */
import { createApp } from '../../server/start/app.ts';
import { newAdminToken } from '../../server/http/admin-auth.ts';
import { createHttpServer, listen } from '../../server/http/server.ts';
import { consoleLogger } from '../../server/http/log.ts';
import { makeRequestLog } from '../../server/request-log/recorder.ts';
import { simulationOf } from '../../server/simulation/runner.ts';
import { openStore } from '../../server/store/index.ts';

/** A sandbox of the run's own. */
export interface OwnSandbox {
  url: string;
  adminToken: string;
  close(): Promise<void>;
}

/** Starts the reference sandbox in memory on 127.0.0.1 and a free port. */
export async function startOwnSandbox(): Promise<OwnSandbox> {
  const store = openStore(':memory:');
  const adminToken = newAdminToken();
  const requestLog = makeRequestLog(store.db);
  const server = createHttpServer(createApp({ store, log: consoleLogger({ quiet: true }), adminToken, requestLog }));
  const url = await listen(server, 0, '127.0.0.1');
  return {
    url,
    adminToken,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await requestLog.close();
      simulationOf(store).close();
      store.db.close();
    },
  };
}
