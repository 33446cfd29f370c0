// The sandbox's housekeeping, never inside a request: sessions queued for the trigram index are
// indexed a small batch at a time, a hundred times a second, and the WAL is checkpointed ten times
// a second (PASSIVE: it waits for nobody). Both used to run inside the commit of whichever request
// came at the wrong moment. The event loop waits for each step: batches of 500 every 100 ms paused
// it long enough to set create's p99 (npm run bench), where batches of 50 every 10 ms index as many
// sessions a second in pauses a tenth as long.
import type { Db } from './store/database.js';
import type { SandboxStore } from './store/store.js';

export interface Maintenance {
  stop(): void;
}

export function startMaintenance(
  db: Db,
  store: SandboxStore,
  { intervalMs = 10, batch = 50, checkpointEvery = 10, warn = (line: string) => console.error(line) } = {},
): Maintenance {
  const fileBacked = db.name !== ':memory:';
  let lastWarning = '';
  let tick = 0;
  // A step waits for a request's open transaction (store/sqlite-backend.ts): the next tick finds
  // it running and skips, instead of queuing steps behind it.
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      await store.sessions.indexPendingSearches(batch);
      // A checkpoint inside a request's open transaction would run on the same connection: left to the next one.
      if (fileBacked && ++tick % checkpointEvery === 0 && !db.inTransaction) db.pragma('wal_checkpoint(PASSIVE)');
      lastWarning = '';
    } catch (error) {
      // Housekeeping never stops the sandbox: a busy database (another process writing) or a
      // full disk is tried again at the next tick, and said once, not ten times a second.
      const message = `Maintenance of the database failed, and is retried: ${(error as Error).message}`;
      if (!/SQLITE_BUSY|database is locked/i.test(message) && message !== lastWarning) warn(message);
      lastWarning = message;
    } finally {
      running = false;
    }
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
