// The sandbox's store: one repository per table, and a transaction per request.
import { catalogRepository } from './catalog.js';
import { channelReset } from './channel-reset.js';
import { clockRepository } from './clock.js';
import { customersRepository } from './customers.js';
import type { Db } from './database.js';
import { deliveriesRepository } from './deliveries.js';
import { disputesRepository } from './dispute-index.js';
import { faultsRepository } from './faults.js';
import { featuresRepository } from './features.js';
import { lettersRepository } from './letters.js';
import { outboxRepository } from './outbox.js';
import { pageSecretRepository } from './page-secret.js';
import { provisionRequestsRepository } from './provision-requests.js';
import { sessionsRepository } from './sessions.js';
import { tokenListQueries } from './token-list.js';
import { tokensRepository } from './tokens.js';

export function createStore(db: Db) {
  // Built once, as better-sqlite3 advises; each call runs its function inside the transaction.
  const inTransaction = db.transaction((fn: () => unknown) => fn());
  // Whoever delivers webhooks listens here; told inside the writing transaction, it only schedules.
  const queuedListeners = new Set<() => void>();
  const deliveryQueued = () => {
    for (const listener of queuedListeners) listener();
  };
  return {
    db,
    /** Runs fn in one IMMEDIATE transaction: all of a request's writes commit together or not at all. */
    transaction: <T>(fn: () => T): T => inTransaction.immediate(fn) as T,
    /** Runs fn in a deferred transaction: a consistent read, for functions that do not write. */
    read: <T>(fn: () => T): T => inTransaction.deferred(fn) as T,
    sessions: sessionsRepository(db),
    /** The channel's customers and their business ids. */
    customers: customersRepository(db),
    tokens: { ...tokensRepository(db), ...tokenListQueries(db) },
    provisionRequests: provisionRequestsRepository(db),
    letters: lettersRepository(db),
    catalog: catalogRepository(db),
    disputes: disputesRepository(db),
    outbox: outboxRepository(db, deliveryQueued),
    deliveries: deliveriesRepository(db),
    /** Calls `listener` whenever a delivery is queued (inside the transaction); returns the unsubscribe. */
    onDeliveryQueued(listener: () => void): () => void {
      queuedListeners.add(listener);
      return () => queuedListeners.delete(listener);
    },
    features: featuresRepository(db),
    faults: faultsRepository(db),
    clock: clockRepository(db),
    /** The secret of the hosted pages' form tokens. */
    pageSecret: pageSecretRepository(db),
    /** Deletes everything of one channel, or of all (`reset.all()`); what it deleted. */
    reset: channelReset(db),
  };
}

export type Store = ReturnType<typeof createStore>;
export { openDatabase } from './database.js';
