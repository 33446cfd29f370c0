// The SQLite store (synchronous, as better-sqlite3 is) behind the application's asynchronous
// interface (store.ts).
//
// One connection serves every request, so a transaction is the connection's: while one is open,
// every statement on the connection runs inside it. Its own calls (fn's, awaited or not: Node's
// AsyncLocalStorage follows them) run at once; a call from anywhere else waits until it has
// committed or rolled back, so that it never reads a write that may yet be rolled back, and writes
// nothing into a transaction that is not its own. One transaction at a time, in the order they were
// asked for. When none is open, which is the common case of a read, a call runs at once, as the
// synchronous store would.
//
// better-sqlite3's db.transaction() takes only a synchronous function, so the transactions are run
// here with BEGIN, COMMIT and ROLLBACK, doing what the synchronous store does around them: the
// cached facts are looked at again as one begins, and emptied when one rolls back (fact-cache.ts).
// A transaction asked for inside one is a savepoint of it: a failure rolls back the savepoint alone.
import { AsyncLocalStorage } from 'node:async_hooks';
import { groupCommit } from './group-commit.js';
import type { SqliteStore } from './index.js';
import type { SandboxStore } from './store.js';

/** An open transaction: a token of identity, the one its calls carry in their async context. */
interface OpenTransaction {
  readonly begun: 'IMMEDIATE' | 'DEFERRED';
}

/** A synchronous repository's methods, each answering a Promise of what it returns. */
type Adapted<R> = {
  [K in keyof R]: R[K] extends (...args: infer A) => infer T ? (...args: A) => Promise<T> : never;
};

/** A function's result, or its error, as a Promise: a synchronous throw becomes a rejection. */
function settle<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (error) {
    return Promise.reject(error);
  }
}

const noop = () => {};

/**
 * A channel's writes one SQLite commit takes while it writes alone (group-commit.ts). A create costs
 * the connection about a tenth of a millisecond, so 64 of them commit in a few milliseconds, the
 * wait a newcomer may find; a commit of 8 left a sixth of create's throughput to the commits
 * (50 connections creating: 3.9k and 4.6k a second, medians of four alternated runs).
 */
export const SQLITE_LONE_LANE = 64;

/** Raised by the cache probe of `sessions.answer`: the answer is not kept, compute it. */
const NOT_KEPT = Symbol('not kept');

// One backend per SQLite store: its transactions are its connection's, and two queues for one
// connection would open one transaction inside the other.
const backends = new WeakMap<SqliteStore, SandboxStore>();

/** The asynchronous store over this SQLite store: the same one every time it is asked for. */
export function sqliteBackend(sqlite: SqliteStore): SandboxStore {
  let backend = backends.get(sqlite);
  if (backend === undefined) {
    backend = adapt(sqlite);
    backends.set(sqlite, backend);
  }
  return backend;
}

function adapt(sqlite: SqliteStore): SandboxStore {
  const { db } = sqlite;
  const begin = { IMMEDIATE: db.prepare('BEGIN IMMEDIATE'), DEFERRED: db.prepare('BEGIN DEFERRED') };
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
  const savepoint = db.prepare('SAVEPOINT nested');
  const release = db.prepare('RELEASE nested');
  const rollbackTo = db.prepare('ROLLBACK TO nested');
  const context = new AsyncLocalStorage<OpenTransaction>();
  let open: OpenTransaction | undefined;
  // The end of the queue of exclusive turns (a transaction, or a call that waited for one).
  let tail: Promise<unknown> = Promise.resolve();

  /** Runs fn once every turn asked for before it has ended, alone on the connection. */
  function exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const turn = tail.then(fn);
    tail = turn.then(noop, noop);
    return turn;
  }

  /** Whether the caller runs inside the open transaction (its fn, or what fn called). */
  const inOpenTransaction = () => open !== undefined && context.getStore() === open;
  /** Whether the caller may use the connection now: no transaction is open, or the open one is the caller's. */
  const mayRunNow = () => open === undefined || context.getStore() === open;

  /** A synchronous store call, run now when the connection is free or the caller's, else after the open transaction. */
  function call<T>(fn: () => T): Promise<T> {
    if (mayRunNow()) return settle(fn);
    return exclusive(() => settle(fn));
  }

  async function inSavepoint<T>(fn: () => Promise<T>): Promise<T> {
    savepoint.run();
    try {
      const value = await fn();
      release.run();
      return value;
    } catch (error) {
      rollbackTo.run();
      release.run();
      sqlite.clearFacts();
      throw error;
    }
  }

  function transaction<T>(mode: OpenTransaction['begun'], fn: () => Promise<T>): Promise<T> {
    // Asked for inside the open transaction (group commit's writes, a read inside a write): a savepoint of it.
    // Its savepoints are taken one after the other: a transaction's fn awaits each before the next.
    if (inOpenTransaction()) return inSavepoint(fn);
    return exclusive(async () => {
      begin[mode].run();
      const opened: OpenTransaction = { begun: mode };
      open = opened;
      try {
        // A deferred transaction's snapshot is taken by the look itself (fact-cache.ts).
        if (mode === 'DEFERRED') sqlite.revalidateSnapshot();
        else sqlite.revalidate();
        const value = await context.run(opened, fn);
        commit.run();
        return value;
      } catch (error) {
        // A failed COMMIT (the database busy) leaves the transaction open: it is rolled back too.
        if (db.inTransaction) rollback.run();
        sqlite.clearFacts();
        throw error;
      } finally {
        open = undefined;
      }
    });
  }

  const immediate = <T>(fn: () => Promise<T>) => transaction('IMMEDIATE', fn);

  /** Every method of a synchronous repository, each answering a Promise through `call`. */
  function adapted<R extends object>(repository: R): Adapted<R> {
    const methods: Record<string, unknown> = {};
    const named = repository as Record<string, (...args: unknown[]) => unknown>;
    for (const [name, method] of Object.entries(repository)) {
      if (typeof method !== 'function') continue;
      // Looked up at each call, not kept: a method replaced on the repository (a test's spy) is the one called.
      // The common case (no transaction open, or the caller's) is `call`'s inlined, with no closure to allocate:
      // every request makes several of these calls.
      methods[name] = (...args: unknown[]) => {
        if (!mayRunNow()) return exclusive(() => settle(() => named[name]!(...args)));
        try {
          return Promise.resolve(named[name]!(...args));
        } catch (error) {
          return Promise.reject(error);
        }
      };
    }
    return methods as Adapted<R>;
  }

  const sessions = sqlite.sessions;
  // Recomputing an answer awaits its reads, in one read transaction: no write of this process can
  // land between the reads and the answer's keeping (a write of the channel drops its answers, and
  // one that landed before the keeping would leave a stale answer kept).
  const answer = async (channel: string, key: string, compute: () => Promise<string>): Promise<string> => {
    const probe = () => {
      try {
        return sessions.answer(channel, key, () => {
          throw NOT_KEPT;
        });
      } catch (error) {
        if (error === NOT_KEPT) return undefined;
        throw error;
      }
    };
    const kept = await call(probe);
    if (kept !== undefined) return kept;
    return transaction('DEFERRED', async () => {
      const text = await compute();
      return sessions.answer(channel, key, () => text);
    });
  };

  return {
    transaction: immediate,
    write: groupCommit(immediate, inOpenTransaction, SQLITE_LONE_LANE),
    read: (fn) => transaction('DEFERRED', fn),
    revalidate: () => call(() => sqlite.revalidate()),
    isOpen: () => sqlite.isOpen(),
    schemaVersions: () => call(() => sqlite.schemaVersions()),
    poolUse: () => undefined,
    sessions: { ...adapted(sessions), answer },
    customers: adapted(sqlite.customers),
    tokens: adapted(sqlite.tokens),
    provisionRequests: adapted(sqlite.provisionRequests),
    letters: adapted(sqlite.letters),
    catalog: adapted(sqlite.catalog),
    disputes: adapted(sqlite.disputes),
    outbox: adapted(sqlite.outbox),
    deliveries: adapted(sqlite.deliveries),
    activity: adapted(sqlite.activity),
    listeners: adapted(sqlite.listeners),
    deliveryWakeUp: sqlite.deliveryWakeUp,
    features: adapted(sqlite.features),
    apiKeys: adapted(sqlite.apiKeys),
    rateBuckets: adapted(sqlite.rateBuckets),
    drill: adapted(sqlite.drill),
    faults: adapted(sqlite.faults),
    clock: adapted(sqlite.clock),
    pageSecret: adapted(sqlite.pageSecret),
    reset: adapted(sqlite.reset),
  };
}
