// The sandbox's housekeeping, ten times a second and never inside a request: sessions queued for
// the trigram index are indexed a batch at a time, and the WAL is checkpointed (PASSIVE: it waits
// for nobody). Both used to run inside the commit of whichever request came at the wrong moment;
// small, frequent steps keep each pause short.
import type { Db } from './store/database.js';
import type { Store } from './store/index.js';

export interface Maintenance {
  stop(): void;
}

export function startMaintenance(db: Db, store: Store, { intervalMs = 100, batch = 500, warn = (line: string) => console.error(line) } = {}): Maintenance {
  const fileBacked = db.name !== ':memory:';
  let lastWarning = '';
  const timer = setInterval(() => {
    try {
      store.sessions.indexPendingSearches(batch);
      if (fileBacked) db.pragma('wal_checkpoint(PASSIVE)');
      lastWarning = '';
    } catch (error) {
      // Housekeeping never stops the sandbox: a busy database (another process writing) or a
      // full disk is tried again at the next tick, and said once, not ten times a second.
      const message = `Maintenance of the database failed, and is retried: ${(error as Error).message}`;
      if (!/SQLITE_BUSY|database is locked/i.test(message) && message !== lastWarning) warn(message);
      lastWarning = message;
    }
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
