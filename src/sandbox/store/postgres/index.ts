// The PostgreSQL store: the backend of the store's interface (../store.ts) for several sandboxes on
// one database. The core (core.ts) runs the pool, the migrations, the transactions and the caches;
// each repository is the twin of its SQLite file, querying through the core's `q`.
import type { DueDelivery } from '../deliveries.js';
import type { DeliveryShaper, SandboxStore } from '../store.js';
import { activityQueries } from './activity.js';
import { apiKeysRepository } from './api-keys.js';
import { API_KEYS_MIGRATION } from './api-keys-migration.js';
import { rateBucketsRepository } from './rate-buckets.js';
import { RATE_BUCKETS_MIGRATION } from './rate-buckets-migration.js';
import { AUTOINCREMENT_MIGRATION } from './autoincrement-migration.js';
import { pgAnswerCache } from './answer-cache.js';
import { catalogRepository } from './catalog.js';
import { CORE_MIGRATIONS, openPostgresCore, type PostgresCore, type PostgresCoreOptions } from './core.js';
import { DATA_MIGRATIONS } from './data-migrations.js';
import { type ClaimingDeliveries, deliveriesRepository } from './deliveries.js';
import { DELIVERY_CLAIMS_MIGRATION } from './delivery-claims-migration.js';
import { disputesRepository } from './dispute-index.js';
import { lettersRepository } from './letters.js';
import { listenersRepository } from './listeners.js';
import { LONG_TEXT_MIGRATION } from './long-text-migration.js';
import { outboxRepository } from './outbox.js';
import { provisionRequestsRepository } from './provision-requests.js';
import { OUTBOX_NUL_MIGRATION } from './outbox-nul-migration.js';
import type { PgMigration } from './schema.js';
import { sessionsRepository } from './sessions.js';
import { tokenListQueries } from './token-list.js';
import { tokensRepository } from './tokens.js';

/**
 * Every migration of the store, oldest first. The migrations written beside the schema's (the
 * revision's, the data repositories', the delivery claims') are numbered here, after the schema's
 * last version, in this order: once a database has them, the order never changes, and a new one
 * goes at the end.
 */
export const STORE_MIGRATIONS: PgMigration[] = [
  ...CORE_MIGRATIONS,
  ...[
    ...DATA_MIGRATIONS,
    { ...DELIVERY_CLAIMS_MIGRATION },
    { ...AUTOINCREMENT_MIGRATION },
    { ...LONG_TEXT_MIGRATION },
    { ...OUTBOX_NUL_MIGRATION },
    { ...API_KEYS_MIGRATION },
    { ...RATE_BUCKETS_MIGRATION },
  ].map((migration, i) => ({
    ...migration,
    version: Math.max(...CORE_MIGRATIONS.map((m) => m.version)) + 1 + i,
  })),
];

/** How the store starts, as the SQLite store's options, and the pool's bounds. */
export interface PostgresStoreOptions extends Omit<PostgresCoreOptions, 'migrations'> {
  /** How a due delivery's body is shaped as it is sent (as stored by default). */
  shapeDelivery?: DeliveryShaper;
}

/**
 * The PostgreSQL store: the store every backend is, with its core's queries, caches and
 * transactions reachable (tests and benches read them), and `close`; `deliveries` also claims,
 * for the dispatchers of several sandboxes.
 */
export interface PostgresStore extends SandboxStore, Pick<PostgresCore, 'q' | 'facts' | 'transactions' | 'close'> {
  deliveries: ClaimingDeliveries;
}

/** Each delivery sends the event as the outbox holds it. */
const AS_STORED: DeliveryShaper = (delivery) => delivery.payload;

/** Opens the store on the database at `url`, bringing its schema up to date first. */
export async function createPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  const core = await openPostgresCore(url, { ...options, migrations: STORE_MIGRATIONS });
  const { q, facts, transactions } = core;
  const shapeDelivery = options.shapeDelivery ?? AS_STORED;
  const shaped = async (delivery: DueDelivery) => ({
    ...delivery,
    payload: shapeDelivery(delivery, await core.drill.get(delivery.channel)),
  });
  const deliveries = deliveriesRepository(q);
  return {
    ...core,
    sessions: sessionsRepository(q, pgAnswerCache(facts)),
    tokens: { ...tokensRepository(q), ...tokenListQueries(q) },
    provisionRequests: provisionRequestsRepository(q),
    letters: lettersRepository(q),
    catalog: catalogRepository(q),
    disputes: disputesRepository(q),
    // The dispatcher is woken once the delivery is committed, so that it finds it.
    outbox: outboxRepository(q, () => transactions.afterCommit(core.deliveryWakeUp.queued)),
    deliveries: {
      ...deliveries,
      /** The endpoint's due deliveries, oldest first, but those in `skip` (in flight); each body as sent now. */
      due: async (endpointId, now, page) =>
        Promise.all((await deliveries.due(endpointId, now, page)).map((delivery) => shaped(delivery))),
      /** Leases the endpoint's due deliveries to `owner`; each body as sent now. */
      claim: async (endpointId, now, limit, owner, leaseMs) =>
        Promise.all(
          (await deliveries.claim(endpointId, now, limit, owner, leaseMs)).map(async (delivery) => ({
            ...delivery,
            ...(await shaped(delivery)),
          })),
        ),
    },
    activity: activityQueries(q),
    listeners: listenersRepository(q),
    apiKeys: apiKeysRepository(q, facts),
    rateBuckets: rateBucketsRepository(q),
  };
}
