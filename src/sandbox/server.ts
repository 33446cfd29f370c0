// Starts the sandbox: opens the database, builds the app, listens, and closes cleanly on a signal.
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { DEFAULT_API_KEYS, parseApiKeys } from './http/auth.js';
import { buildSandbox } from './http/app.js';
import { docsBeingBuilt } from './http/docs-build-state.js';
import { drillDeliveryShaper } from './http/evolution-drill.js';
import { sandboxAddress } from './http/sandbox-address.js';
import { startDispatcher } from './delivery/dispatcher.js';
import { configureEndpoint } from './delivery/endpoints.js';
import { deliveryWakeUp } from './store/wake-up.js';
import { checkPublicUrl, listenUrl, protectedModeRefusal } from './exposure.js';
import { sqliteDatabaseFile } from './database-location.js';
import { batchedLines } from './line-writer.js';
import { startMaintenance } from './maintenance.js';
import type { Db } from './store/database.js';
import { createStore, openDatabase, type StoreOptions } from './store/index.js';
import { sqliteBackend } from './store/sqlite-backend.js';
import type { SandboxStore } from './store/store.js';
import { exposureWarning } from './store/private-files.js';

export interface StartOptions {
  host: string;
  port: number;
  db: string;
  apiKeys?: string;
  /** No line per request. */
  quiet?: boolean;
  /** Start from an empty database: every channel's data is deleted first (the file stays). */
  reset?: boolean;
  corsOrigin?: string;
  /** A webhook endpoint for the development channel (the first key's), added or updated at start. */
  webhook?: { url: string; secret?: string };
  /** The built docs site, served at /docs. */
  docsDir?: string;
  /** The scheme and host of redirect_url (--public-url); the listen address by default. */
  publicUrl?: string;
  /** Every channel that has not set its own plays a later version of the service (--drill). */
  drill?: boolean;
  /** More names the sandbox answers to (--allowed-hosts). */
  allowedHosts?: string[];
}

/**
 * The store the sandbox runs on, made from the database --db opened: SQLite, adapted to the
 * application's asynchronous interface. A PostgreSQL store plugs in here: the --db option would
 * name its server, and this would make its store (same interface, same options) instead.
 */
export function openStore(db: Db, options: StoreOptions): SandboxStore {
  return sqliteBackend(createStore(db, options));
}

export async function startSandbox(options: StartOptions) {
  const apiKeys = options.apiKeys ? parseApiKeys(options.apiKeys) : DEFAULT_API_KEYS;
  const refusal = protectedModeRefusal(options.host, apiKeys);
  if (refusal) throw new Error(refusal);
  const configuredUrl = options.publicUrl === undefined ? undefined : checkPublicUrl(options.publicUrl);
  // Before anything is created: a URL is never taken for a file's name (database-location.ts).
  const dbFile = sqliteDatabaseFile(options.db);
  const db = openDatabase(dbFile);
  // A file the sandbox creates is private; one that exists keeps its mode, which the start names
  // when others may read it: it starts all the same (the file is the user's). Read once open, so
  // that the -wal and -shm SQLite has just made beside the file (at the end of a link) are read too.
  const exposure = dbFile === ':memory:' ? undefined : exposureWarning(dbFile);
  if (exposure) console.error(exposure);
  // The store is made with its collaborators: the drill's shaping of each delivery as it is sent,
  // and the wake-up that the dispatcher (below) and the listeners' claims (http/app.ts) wait on.
  const store = openStore(db, {
    ...(options.drill ? { drill: { enabled: true, service_fee: 'number' } } : {}),
    shapeDelivery: drillDeliveryShaper(),
    wakeUp: deliveryWakeUp(),
  });
  if (options.reset) await store.transaction(() => store.reset.all());
  const requestLog = options.quiet ? undefined : batchedLines();
  // The listen address's URL is known once it listens (--port 0 picks a port then).
  let publicUrl = configuredUrl ?? listenUrl(options.host, options.port);
  const app = buildSandbox({
    store,
    apiKeys,
    logger: options.quiet ? false : { level: 'warn' },
    ...(requestLog ? { requestLog: requestLog.write } : {}),
    ...(options.corsOrigin ? { corsOrigin: options.corsOrigin } : {}),
    publicUrl: () => publicUrl,
    ...(options.docsDir ? { docsDir: options.docsDir } : {}),
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
  });
  const address = await app.listen({ host: options.host, port: options.port });
  if (configuredUrl === undefined) publicUrl = listenUrl(options.host, (app.server.address() as AddressInfo).port);
  // Once it listens, the sandbox knows its own address, which --webhook-url must not name.
  let webhook: Awaited<ReturnType<typeof configureEndpoint>> | undefined;
  try {
    webhook = options.webhook
      ? await store.transaction(() =>
          configureEndpoint(store, [...apiKeys.values()][0]!, options.webhook!, sandboxAddress(app)),
        )
      : undefined;
  } catch (error) {
    await app.close();
    db.close();
    throw new Error(`--webhook-url ${options.webhook!.url}: ${(error as Error).message}`);
  }
  // Deliveries start once the API answers; a restart resumes what is due.
  const dispatcher = startDispatcher(store);
  const maintenance = startMaintenance(db, store);
  const close = async () => {
    await app.close();
    maintenance.stop();
    requestLog?.flush();
    await dispatcher.stop();
    db.close();
  };
  const docs = options.docsDir
    ? {
        url: `${address}/docs/`,
        built: existsSync(path.join(options.docsDir, 'index.html')),
        building: docsBeingBuilt(options.docsDir),
      }
    : undefined;
  return {
    app,
    address,
    publicUrl,
    apiKeys,
    close,
    webhook,
    docs,
    dbFile: dbFile === ':memory:' ? ':memory:' : path.resolve(dbFile),
  };
}
