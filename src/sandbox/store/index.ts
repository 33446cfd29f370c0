// The sandbox's store: one repository per table, and a transaction per request.
import { clockRepository, disputesRepository, faultsRepository, featuresRepository } from './settings.js';
import type { Db } from './database.js';
import { outboxRepository } from './outbox.js';
import { sessionsRepository } from './sessions.js';
import { tokensRepository } from './tokens.js';

export function createStore(db: Db) {
  return {
    db,
    /** Runs fn in one IMMEDIATE transaction: all of a request's writes commit together or not at all. */
    transaction<T>(fn: () => T): T {
      return db.transaction(fn).immediate();
    },
    /** Runs fn in a deferred transaction: a consistent read that takes a write lock only if it writes. */
    read<T>(fn: () => T): T {
      return db.transaction(fn).deferred();
    },
    sessions: sessionsRepository(db),
    tokens: tokensRepository(db),
    disputes: disputesRepository(db),
    outbox: outboxRepository(db),
    features: featuresRepository(db),
    faults: faultsRepository(db),
    clock: clockRepository(db),
  };
}

export type Store = ReturnType<typeof createStore>;
export { openDatabase } from './database.js';
