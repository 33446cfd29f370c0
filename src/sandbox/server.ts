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
import { type DatabaseLocation, databaseLocation, printableDatabaseUrl } from './database-location.js';
import { quietListener, STOP_BOUNDS } from './graceful-stop.js';
import { DEFAULT_RATE_LIMIT, type RateLimit } from './domain/rate-limit.js';
import { batchedLines } from './line-writer.js';
import { sandboxMetrics } from './metrics/sandbox-metrics.js';
import { type Maintenance, startMaintenance } from './maintenance.js';
import { createPostgresStore } from './store/postgres/index.js';
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
  /** `json`: one JSON line per request, with its request id, for a log store (--log json). */
  log?: 'text' | 'json';
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
  /** Each API key's rate limit (--rate-limit): DEFAULT_RATE_LIMIT when absent, or off. */
  rateLimit?: RateLimit | 'off';
}

/** The store the sandbox runs on, with what its backend needs beside it. */
export interface OpenedStore {
  store: SandboxStore;
  /** Ends the backend's connections (the SQLite file, or the PostgreSQL pool). */
  close(): Promise<void>;
  /** The database as the banner names it: the file's absolute path, :memory:, or the URL without its password. */
  label: string;
  /** Starts the backend's housekeeping, if it has any. */
  startMaintenance(): Maintenance;
}

const NO_MAINTENANCE: Maintenance = { stop: () => {} };

/**
 * Opens the store --db names: SQLite (a file or :memory:), adapted to the application's
 * asynchronous interface, or PostgreSQL, whose store is asynchronous itself. Both take the same
 * options; PostgreSQL's has no housekeeping (its trigram index is kept by the server as it writes,
 * and it has no WAL file to checkpoint).
 */
export async function openStore(location: DatabaseLocation, options: StoreOptions): Promise<OpenedStore> {
  if (location.kind === 'postgres') {
    const label = printableDatabaseUrl(location.url);
    // A server that cannot be reached, or a schema it refuses, stops the start in one line that
    // names the database (never its password).
    const store = await createPostgresStore(location.url, options).catch((error: Error) => {
      throw new Error(`--db ${label}: ${error.message}`);
    });
    return {
      store,
      close: () => store.close(),
      label,
      startMaintenance: () => NO_MAINTENANCE,
    };
  }
  const dbFile = location.file;
  const db = openDatabase(dbFile);
  // A file the sandbox creates is private; one that exists keeps its mode, which the start names
  // when others may read it: it starts all the same (the file is the user's). Read once open, so
  // that the -wal and -shm SQLite has just made beside the file (at the end of a link) are read too.
  const exposure = dbFile === ':memory:' ? undefined : exposureWarning(dbFile);
  if (exposure) console.error(exposure);
  const store = sqliteBackend(createStore(db, options));
  return {
    store,
    close: async () => {
      db.close();
    },
    label: dbFile === ':memory:' ? ':memory:' : path.resolve(dbFile),
    startMaintenance: () => startMaintenance(db, store),
  };
}

/** The channel --webhook-url delivers for: the first fixed key's. */
function developmentChannel(apiKeys: ReadonlyMap<string, string>): string {
  const channel = [...apiKeys.values()][0];
  if (channel === undefined)
    throw new Error(
      "it delivers the first fixed key's channel, and SANDBOX_API_KEYS=none fixes none: add an endpoint with POST /sandbox/v1/webhook_endpoints",
    );
  return channel;
}

export async function startSandbox(options: StartOptions) {
  const apiKeys = options.apiKeys ? parseApiKeys(options.apiKeys) : DEFAULT_API_KEYS;
  const refusal = protectedModeRefusal(options.host, apiKeys);
  if (refusal) throw new Error(refusal);
  const configuredUrl = options.publicUrl === undefined ? undefined : checkPublicUrl(options.publicUrl);
  // Before anything is created: a URL is never taken for a file's name (database-location.ts).
  const location = databaseLocation(options.db);
  // The store is made with its collaborators: the drill's shaping of each delivery as it is sent,
  // and the wake-up that the dispatcher (below) and the listeners' claims (http/app.ts) wait on.
  const opened = await openStore(location, {
    ...(options.drill ? { drill: { enabled: true, service_fee: 'number' } } : {}),
    shapeDelivery: drillDeliveryShaper(),
    wakeUp: deliveryWakeUp(),
  });
  const { store } = opened;
  if (options.reset) await store.transaction(() => store.reset.all());
  const jsonLog = options.log === 'json' && !options.quiet;
  const requestLog = options.quiet || jsonLog ? undefined : batchedLines();
  // The listen address's URL is known once it listens (--port 0 picks a port then).
  let publicUrl = configuredUrl ?? listenUrl(options.host, options.port);
  const rateLimit = options.rateLimit ?? DEFAULT_RATE_LIMIT;
  let stopping = false;
  const metrics = sandboxMetrics(store);
  const app = buildSandbox({
    store,
    metrics,
    lifecycle: { stopping: () => stopping },
    apiKeys,
    logger: options.quiet ? false : { level: 'warn' },
    ...(jsonLog ? { jsonLog } : {}),
    ...(requestLog ? { requestLog: requestLog.write } : {}),
    ...(options.corsOrigin ? { corsOrigin: options.corsOrigin } : {}),
    publicUrl: () => publicUrl,
    ...(options.docsDir ? { docsDir: options.docsDir } : {}),
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
    ...(rateLimit === 'off' ? {} : { rateLimit }),
  });
  const address = await app.listen({ host: options.host, port: options.port });
  if (configuredUrl === undefined) publicUrl = listenUrl(options.host, (app.server.address() as AddressInfo).port);
  // Once it listens, the sandbox knows its own address, which --webhook-url must not name.
  let webhook: Awaited<ReturnType<typeof configureEndpoint>> | undefined;
  try {
    webhook = options.webhook
      ? await store.transaction(() =>
          configureEndpoint(store, developmentChannel(apiKeys), options.webhook!, sandboxAddress(app)),
        )
      : undefined;
  } catch (error) {
    await app.close();
    await opened.close();
    throw new Error(`--webhook-url ${options.webhook!.url}: ${(error as Error).message}`);
  }
  // Deliveries start once the API answers; a restart resumes what is due.
  const dispatcher = startDispatcher(store, { onAttempt: metrics.attempt });
  const maintenance = opened.startMaintenance();
  const close = async () => {
    stopping = true;
    await quietListener(app.server, STOP_BOUNDS.quietMs, STOP_BOUNDS.listenAtMostMs);
    // The requests in flight finish while the attempts in flight are answered (or given back).
    await Promise.all([app.close(), dispatcher.stop(STOP_BOUNDS.deliveryGraceMs)]);
    maintenance.stop();
    requestLog?.flush();
    await opened.close();
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
    /** How long close() may take before the process should exit regardless (graceful-stop.ts). */
    stopDeadlineMs: STOP_BOUNDS.deadlineMs,
    rateLimit,
    webhook,
    docs,
    /** The database as the banner names it (OpenedStore's label). */
    database: opened.label,
    /** Whether the state outlives the process (a file or a server, not :memory:). */
    persistent: opened.label !== ':memory:',
  };
}
