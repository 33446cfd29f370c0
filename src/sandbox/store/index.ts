// The sandbox's SQLite store, the embedded backend of the store's interface (store.ts): one
// repository per table, and a transaction per request. It is synchronous (sqlite-store.ts), as
// better-sqlite3 is; sqlite-backend.ts gives the application its asynchronous interface.
import { activityQueries } from './activity.js';
import { apiKeysRepository } from './api-keys.js';
import { rateBucketsRepository } from './rate-buckets.js';
import { catalogRepository } from './catalog.js';
import { channelReset } from './channel-reset.js';
import { clockRepository } from './clock.js';
import { customersRepository } from './customers.js';
import { drillRepository } from './drill.js';
import type { Db } from './database.js';
import { type ClaimedDelivery, deliveriesRepository, type DueDelivery } from './deliveries.js';
import { disputesRepository } from './dispute-index.js';
import type { DrillSettings } from '../domain/evolution-drill.js';
import { factCache } from './fact-cache.js';
import { faultsRepository } from './faults.js';
import { featuresRepository } from './features.js';
import { lettersRepository } from './letters.js';
import { listenersRepository } from './listeners.js';
import { MIGRATIONS } from './migrations.js';
import { outboxRepository } from './outbox.js';
import { pageSecretRepository } from './page-secret.js';
import { provisionRequestsRepository } from './provision-requests.js';
import { sessionsRepository } from './sessions.js';
import { tokenListQueries } from './token-list.js';
import { tokensRepository } from './tokens.js';
import type { SyncSandboxStore } from './sqlite-store.js';
import type { DeliveryShaper } from './store.js';
import { deliveryWakeUp, type DeliveryWakeUp } from './wake-up.js';

/**
 * How a store starts, and the collaborators it is made with: what --drill gives every channel
 * that has not set its own (off by default), how a due delivery's body is shaped as it is sent (as
 * stored by default: the evolution drill's shaper is given by whoever knows the contract), and who
 * is woken when a delivery is queued (a new wake-up of its own by default).
 */
export interface StoreOptions {
  drill?: DrillSettings;
  shapeDelivery?: DeliveryShaper;
  wakeUp?: DeliveryWakeUp;
}

/** The SQLite store: synchronous, the open database under it, and its cached facts' reset. */
export interface SqliteStore extends SyncSandboxStore {
  db: Db;
  /**
   * Empties the cached facts: the asynchronous backend runs its transactions itself (BEGIN,
   * COMMIT, ROLLBACK) and must drop them on a rollback, as `transaction` does.
   */
  clearFacts(): void;
  /** Looks for another connection's commit by the pragma, which takes a deferred transaction's snapshot (fact-cache.ts). */
  revalidateSnapshot(): void;
}

/** The schema version openDatabase brings a file to. */
const NEWEST_MIGRATION = Math.max(...MIGRATIONS.map((m) => m.version));

export const NO_DRILL: DrillSettings = { enabled: false, service_fee: 'number' };

/** Each delivery sends the event as the outbox holds it. */
export const AS_STORED: DeliveryShaper = (delivery) => delivery.payload;

export function createStore(db: Db, options: StoreOptions = {}): SqliteStore {
  // Each channel's clock, faults and features, cached (fact-cache.ts): looked at again as every
  // transaction starts, and emptied when one rolls back.
  const facts = factCache(db);
  // Built once, as better-sqlite3 advises; each call runs its function inside the transaction.
  // BEGIN IMMEDIATE holds its snapshot from the start: the wal-index header's look is enough. A
  // deferred transaction's snapshot is taken by its first statement: the pragma takes it, so that
  // no commit lands between the look and the reads (fact-cache.ts).
  const inTransaction = db.transaction((fn: () => unknown) => {
    facts.revalidate();
    return fn();
  });
  const inSnapshot = db.transaction((fn: () => unknown) => {
    facts.revalidateSnapshot();
    return fn();
  });
  const rollingBack = <T>(run: () => T): T => {
    try {
      return run();
    } catch (error) {
      facts.clear();
      throw error;
    }
  };
  const transaction = <T>(fn: () => T): T => rollingBack(() => inTransaction.immediate(fn) as T);
  const reset = channelReset(db);
  const shapeDelivery = options.shapeDelivery ?? AS_STORED;
  const wakeUp = options.wakeUp ?? deliveryWakeUp();
  const deliveries = deliveriesRepository(db);
  const drill = drillRepository(db, facts, options.drill ?? NO_DRILL);
  return {
    db,
    /** Runs fn in one IMMEDIATE transaction: all of a request's writes commit together or not at all. */
    transaction,
    /** Runs fn in a deferred transaction: a consistent read, for functions that do not write. */
    read: <T>(fn: () => T): T => rollingBack(() => inSnapshot.deferred(fn) as T),
    /**
     * Empties the cached facts when another process has committed since the last look (a request does it as it
     * starts).
     */
    revalidate: facts.revalidate,
    revalidateSnapshot: facts.revalidateSnapshot,
    clearFacts: facts.clear,
    isOpen: () => db.open,
    schemaVersions: () => ({
      database: db.prepare('SELECT coalesce(max(version), 0) FROM schema_migrations').pluck().get() as number,
      known: NEWEST_MIGRATION,
    }),
    sessions: sessionsRepository(db, facts),
    /** The channel's customers and their business ids. */
    customers: customersRepository(db),
    tokens: { ...tokensRepository(db), ...tokenListQueries(db) },
    provisionRequests: provisionRequestsRepository(db),
    letters: lettersRepository(db),
    catalog: catalogRepository(db),
    disputes: disputesRepository(db),
    outbox: outboxRepository(db, wakeUp.queued),
    deliveries: {
      ...deliveries,
      /** The endpoint's due deliveries, oldest first, but those in `skip` (in flight); each body as sent now. */
      due: (endpointId: string, now: string, page: { skip: number[]; limit: number }): DueDelivery[] =>
        deliveries
          .due(endpointId, now, page)
          .map((delivery) => ({ ...delivery, payload: shapeDelivery(delivery, drill.get(delivery.channel)) })),
      /** Leases the endpoint's due deliveries to `owner`; each body as sent now. */
      claim: (endpointId: string, now: string, limit: number, owner: string, leaseMs: number): ClaimedDelivery[] =>
        deliveries
          .claim(endpointId, now, limit, owner, leaseMs)
          .map((delivery) => ({ ...delivery, payload: shapeDelivery(delivery, drill.get(delivery.channel)) })),
    },
    /** What the dashboard reads: a session's events, the newest events with their attempts, the revision. */
    activity: activityQueries(db),
    /** Webhook endpoints whose deliveries a command line claims (`hsa-fsa-sandbox listen`). */
    listeners: listenersRepository(db),
    deliveryWakeUp: wakeUp,
    features: featuresRepository(db, facts),
    apiKeys: apiKeysRepository(db, facts),
    rateBuckets: rateBucketsRepository(db),
    /** Each channel's evolution drill: whether it plays a later version of the service. */
    drill,
    faults: faultsRepository(db, facts),
    clock: clockRepository(db, facts),
    /** The secret of the hosted pages' form tokens. */
    pageSecret: pageSecretRepository(db),
    /** Deletes everything of one channel, or of all (`reset.all()`); what it deleted. */
    reset: {
      channel: (channel: string) => {
        const deleted = reset.channel(channel);
        facts.clear();
        return deleted;
      },
      all: () => {
        const deleted = reset.all();
        facts.clear();
        return deleted;
      },
    },
  };
}

/** The store createStore makes: the SQLite backend, its database reachable (tests and benches read it). */
export type Store = SqliteStore;
export type { DeliveryShaper, SandboxStore } from './store.js';
export type { SyncSandboxStore } from './sqlite-store.js';
export { openDatabase } from './database.js';
