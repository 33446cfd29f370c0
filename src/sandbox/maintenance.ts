// The sandbox's housekeeping, ten times a second and never inside a request: sessions queued for
// the trigram index are indexed a batch at a time, and the WAL is checkpointed (PASSIVE: it waits
// for nobody). Both used to run inside the commit of whichever request came at the wrong moment;
// small, frequent steps keep each pause short.
import type { Db } from './store/database.js';
import type { Store } from './store/index.js';

export interface Maintenance {
  stop(): void;
}

export function startMaintenance(db: Db, store: Store, { intervalMs = 100, batch = 200 } = {}): Maintenance {
  const fileBacked = db.name !== ':memory:';
  const timer = setInterval(() => {
    try {
      store.sessions.indexPendingSearches(batch);
      if (fileBacked) db.pragma('wal_checkpoint(PASSIVE)');
    } catch (error) {
      // A busy database (another process writing) is retried at the next tick.
      if (!/SQLITE_BUSY|database is locked/i.test(String(error))) throw error;
    }
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
