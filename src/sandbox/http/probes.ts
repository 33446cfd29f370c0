// What a load balancer and an orchestrator ask a sandbox: /health, whether the process is alive
// (it answers without the database, so a database away never gets a live process restarted), and
// /ready, whether it should be sent requests (the database answers, its schema is the one this
// sandbox writes by, and the sandbox is not stopping). Neither needs a key: a balancer has none.
import type { FastifyInstance } from 'fastify';
import type { SandboxStore } from '../store/store.js';
import { DATABASE_RETRY_AFTER_SECONDS, databaseUnavailable, HttpRefusal } from './errors.js';

/** Whether the sandbox has begun to stop (server.ts sets it as a signal arrives). */
export interface Lifecycle {
  stopping(): boolean;
}

/** A sandbox that is not stopping: the default of an app that no server runs (tests' inject). */
export const RUNNING: Lifecycle = { stopping: () => false };

const notReady = (message: string) =>
  new HttpRefusal(503, 'ServiceUnavailable', message, { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) });

export function registerProbes(app: FastifyInstance, store: SandboxStore, lifecycle: Lifecycle): void {
  // A client on a kept-alive connection is sent elsewhere (another sandbox) for its next request.
  app.addHook('onRequest', (_request, reply, done) => {
    if (lifecycle.stopping()) reply.header('connection', 'close');
    done();
  });
  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/ready', async () => {
    if (lifecycle.stopping())
      throw notReady('The sandbox is stopping: it finishes the requests it has, and takes no more.');
    const versions = await store.schemaVersions().catch((error: unknown) => {
      // However the database failed to answer (down, or a SQLite file closed under the process),
      // the sandbox is not ready; the error path would answer 500 to what it does not recognise.
      throw Object.assign(databaseUnavailable(), { cause: error });
    });
    if (versions.database !== versions.known)
      throw notReady(
        `The database's schema is version ${versions.database}, and this sandbox writes by version ` +
          `${versions.known}: ${versions.database > versions.known ? 'a newer sandbox has migrated it; update this one' : 'it is behind'}.`,
      );
    return { status: 'ready', schema_version: versions.database };
  });
}
