// The core of the PostgreSQL store: the pool, the migrations, the transactions and the caches, and
// the small repositories of per-channel facts, customers, the page secret and the reset. The store
// (index.ts) adds the repositories of sessions, tokens, provisioning, the catalog and webhooks,
// which query through the same `q` and cache through the same `facts`.
import type { DrillSettings } from '../../domain/evolution-drill.js';
import type { SandboxStore } from '../store.js';
import { type DeliveryWakeUp, deliveryWakeUp } from '../wake-up.js';
import { channelReset } from './channel-reset.js';
import { clockRepository } from './clock.js';
import { openPool, POOL_BOUNDS, type PoolBounds, routedQueries } from './connection.js';
import { customersRepository } from './customers.js';
import { drillRepository } from './drill.js';
import { factCache, type PgFactCache } from './fact-cache.js';
import { faultsRepository } from './faults.js';
import { featuresRepository } from './features.js';
import { groupCommit } from '../group-commit.js';
import { migratePool } from './migrate.js';
import { pageSecretRepository } from './page-secret.js';
import type { PgQueries } from './queries.js';
import { READ_REVISION, STORE_REVISION_MIGRATION } from './revision.js';
import { PG_MIGRATIONS, type PgMigration } from './schema.js';
import { type Transactions, transactions } from './transactions.js';

/** The migrations of the core: the schema, and the revision the caches follow. */
export const CORE_MIGRATIONS: PgMigration[] = [...PG_MIGRATIONS, STORE_REVISION_MIGRATION];

/** The newest schema version the database holds. */
const NEWEST_APPLIED = 'SELECT coalesce(max(version), 0) FROM schema_migrations';

/** Off, unless the sandbox started with --drill (the SQLite store's NO_DRILL). */
const NO_DRILL: DrillSettings = { enabled: false, service_fee: 'number' };

export interface PostgresCoreOptions {
  /** What --drill gives every channel that has not set its own (off by default). */
  drill?: DrillSettings;
  /** Who is woken when a delivery is queued (a new wake-up of its own by default). */
  wakeUp?: DeliveryWakeUp;
  /** The pool's bounds, each defaulting to POOL_BOUNDS'. */
  pool?: Partial<PoolBounds>;
  /** The migrations to apply (CORE_MIGRATIONS by default; the store adds its repositories'). */
  migrations?: PgMigration[];
}

type CoreParts =
  | 'transaction'
  | 'write'
  | 'read'
  | 'revalidate'
  | 'isOpen'
  | 'schemaVersions'
  | 'poolUse'
  | 'customers'
  | 'deliveryWakeUp'
  | 'features'
  | 'drill'
  | 'faults'
  | 'clock'
  | 'pageSecret'
  | 'reset';

export interface PostgresCore extends Pick<SandboxStore, CoreParts> {
  /** The seam every repository queries through. */
  q: PgQueries;
  /** The caches' coherence across sandboxes (fact-cache.ts). */
  facts: PgFactCache;
  /** The transactions, for what must run after a commit (a wake-up). */
  transactions: Transactions;
  /** Ends the pool's connections; the store is closed from then on. */
  close(): Promise<void>;
}

export async function openPostgresCore(url: string, options: PostgresCoreOptions = {}): Promise<PostgresCore> {
  const pool = openPool(url, { ...POOL_BOUNDS, ...options.pool });
  try {
    await migratePool(pool, options.migrations ?? CORE_MIGRATIONS);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const known = Math.max(0, ...(options.migrations ?? CORE_MIGRATIONS).map((m) => m.version));
  let open = true;
  let facts: PgFactCache | undefined;
  const tx = transactions(pool, {
    began: (t) => facts!.began(t),
    committed: (t) => facts!.committed(t),
    rolledBack: (t) => facts!.rolledBack(t),
    savepointRolledBack: (t) => facts!.savepointRolledBack(t),
  });
  facts = factCache(tx.current);
  const cache = facts;
  const q = routedQueries(pool, tx.client, tx.write);
  const reset = channelReset(q);
  // A reset is one write (every sandbox sees all of it or none), and empties the caches as it commits.
  const resetting = (deleting: () => Promise<Awaited<ReturnType<typeof reset.all>>>) =>
    tx.write(async () => {
      const deleted = await deleting();
      cache.clear();
      return deleted;
    });
  return {
    q,
    facts: cache,
    transactions: tx,
    /** Runs fn in one write transaction (under the write lock): all its writes commit together or not at all. */
    transaction: tx.write,
    /** Runs fn in the write transaction of the writes that arrive with it, alone in a savepoint (group-commit.ts). */
    write: groupCommit(tx.write, () => tx.current() !== undefined),
    /** Runs fn in one read-only snapshot. */
    read: tx.read,
    /** Reads the committed revision: the caches are emptied when another sandbox has committed since the last look. */
    async revalidate() {
      cache.saw(Number(await q.value(READ_REVISION)));
    },
    isOpen: () => open,
    poolUse: () => ({ open: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    schemaVersions: async () => ({ database: Number(await q.value(NEWEST_APPLIED)), known }),
    customers: customersRepository(q),
    deliveryWakeUp: options.wakeUp ?? deliveryWakeUp(),
    features: featuresRepository(q, cache),
    drill: drillRepository(q, cache, options.drill ?? NO_DRILL),
    faults: faultsRepository(q, cache),
    clock: clockRepository(q, cache),
    pageSecret: pageSecretRepository(q),
    reset: {
      channel: (channel) => resetting(() => reset.channel(channel)),
      all: () => resetting(() => reset.all()),
    },
    async close() {
      if (!open) return;
      open = false;
      await pool.end();
    },
  };
}
