// The transactions of the PostgreSQL store, as the SQLite store runs them (../index.ts), for
// several sandboxes on one database:
// - A write transaction begins, takes one advisory lock that every sandbox's writes take, and
//   bumps the store's revision (revision.ts), in one round trip; it commits, or rolls back on any
//   error. So writes are serialized as SQLite's are: a repository may read, then write what it read
//   (an idempotency key looked up, then inserted; a sequence computed from the rows), and no other
//   sandbox writes in between. It runs at READ COMMITTED, which under the lock reads the latest
//   committed state.
// - The writes of one sandbox wait their turn here before they take a connection: the lock would
//   serialize them anyway, and a pool full of writers waiting for it would leave no connection to
//   the reads. A write that waits its turn longer than the queue's bound gives up with
//   StoreUnavailable (503): the database is down or stuck, and a request must not hang behind it.
// - A read is one snapshot (REPEATABLE READ, READ ONLY) that also reads the revision.
// - A transaction (or read) asked for inside another runs inside it, in a savepoint, as
//   better-sqlite3 nests them: rolled back alone when its function throws. Savepoints asked for
//   at once by one transaction run one after the other.
// - The statements a function sends go to its transaction's client through an AsyncLocalStorage
//   context; work the function leaves behind (a timer) runs on the pool once it has ended.
// - A transaction cut off (connection lost, statement timeout, the process killed) is rolled back
//   by the server: nothing of it is committed. A connection whose ROLLBACK failed is destroyed,
//   never handed to another caller.
// In PostgreSQL a failed statement aborts its transaction: a function that catches a statement's
// error must have run it in a nested transaction (a savepoint) to go on; otherwise the commit is
// refused with an error, never turned silently into a rollback.
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import { StoreUnavailable } from '../unavailable.js';
import { BUMP_REVISION, READ_REVISION } from './revision.js';
import type { Transaction } from './transaction.js';

/**
 * The key of the write lock: any constant the sandboxes share, unlike the migrations' lock
 * (migrate.ts) and other uses of advisory locks on a shared server.
 */
export const WRITE_LOCK_KEY = 4_702_216_193_301_058n;

/** What the caches are told of each transaction (fact-cache.ts). */
export interface TransactionObserver {
  began(tx: Transaction): void;
  committed(tx: Transaction): void;
  rolledBack(tx: Transaction): void;
  /** A savepoint of the transaction rolled back: what it read since is no longer what it wrote. */
  savepointRolledBack(tx: Transaction): void;
}

interface OpenTransaction extends Transaction {
  revision: number;
  client: pg.PoolClient;
  open: boolean;
  savepoints: number;
  /** Run once it has committed (never if it rolls back). */
  afterCommit: Array<() => void>;
}

/** One level of nesting: the transaction, and the savepoints asked for at this level, one after the other. */
interface Frame {
  tx: OpenTransaction;
  queue: Promise<unknown>;
}

export interface Transactions {
  /** Runs fn in a write transaction, or in a savepoint of the caller's transaction. */
  write<T>(fn: () => Promise<T>): Promise<T>;
  /** Runs fn in a read-only snapshot, or in a savepoint of the caller's transaction. */
  read<T>(fn: () => Promise<T>): Promise<T>;
  /** The caller's open transaction, if any. */
  current(): Transaction | undefined;
  /** The client of the caller's open transaction, if any. */
  client(): pg.PoolClient | undefined;
  /**
   * Runs `fn` once the caller's transaction has committed, or at once outside any: whoever it
   * wakes (the dispatcher, for a queued delivery) then reads what the transaction wrote.
   */
  afterCommit(fn: () => void): void;
}

/** The driver gave up waiting for the server's answer (PoolBounds' answerTimeoutMs). */
const unanswered = (error: unknown) => error instanceof Error && error.message === 'Query read timeout';

/** How long a write waits for the writes before it in this sandbox (TransactionOptions). */
export const WRITE_QUEUE_WAIT_MS = 5_000;

export interface TransactionOptions {
  /** How long a write waits its turn behind this sandbox's other writes before it gives up. */
  writeQueueWaitMs?: number;
}

/**
 * A chain of functions run one after the other; one that fails does not stop the next. A function
 * whose turn has not come after `waitMs` is dropped from the chain, never run, and its caller gets
 * StoreUnavailable.
 */
function serially(waitMs: number) {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>): Promise<T> => {
    // Once given up, the error its caller got: its turn, when it comes, fails with it unrun.
    let abandoned: StoreUnavailable | undefined;
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        abandoned = new StoreUnavailable(`A write waited ${waitMs} ms for the writes before it, and gave up.`);
        reject(abandoned);
      }, waitMs);
    });
    const turn = tail.then(() => {
      clearTimeout(timer);
      if (abandoned) throw abandoned;
      return fn();
    });
    tail = turn.catch(() => {});
    return Promise.race([turn, gaveUp]);
  };
}

export function transactions(
  pool: pg.Pool,
  observer: TransactionObserver,
  options: TransactionOptions = {},
): Transactions {
  const context = new AsyncLocalStorage<Frame>();
  const oneWriteAtATime = serially(options.writeQueueWaitMs ?? WRITE_QUEUE_WAIT_MS);
  const openFrame = () => {
    const frame = context.getStore();
    return frame?.tx.open ? frame : undefined;
  };

  async function top<T>(kind: 'write' | 'read', begin: string, fn: () => Promise<T>): Promise<T> {
    const client = await pool.connect();
    // A connection the server ends between two statements (a restart, pg_terminate_backend) says so
    // by an 'error' event, which unheard would end the process: its next statement fails instead,
    // and so does the ROLLBACK after it, which marks the connection broken below.
    const onLost = () => {};
    client.on('error', onLost);
    const tx: OpenTransaction = { kind, revision: 0, client, open: true, savepoints: 0, afterCommit: [] };
    let broken: Error | undefined;
    let value: T;
    try {
      const results = (await client.query(begin)) as unknown as pg.QueryResult[];
      const revision = Number(results.at(-1)!.rows[0]!.revision);
      // A write reads the revision it bumped: the one committed before it is one less.
      tx.revision = kind === 'write' ? revision - 1 : revision;
      observer.began(tx);
      value = await context.run({ tx, queue: Promise.resolve() }, fn);
      tx.open = false;
      const done = await client.query('COMMIT');
      // PostgreSQL answers COMMIT of an aborted transaction (a statement failed and fn went on) with ROLLBACK.
      if (done.command !== 'COMMIT') throw new Error('The transaction was rolled back: one of its statements failed.');
      observer.committed(tx);
    } catch (error) {
      tx.open = false;
      // A server that stopped answering would not answer the ROLLBACK either: the connection is
      // destroyed instead, and the server rolls back when it sees it gone.
      broken = unanswered(error)
        ? (error as Error)
        : await client.query('ROLLBACK').then(
            () => undefined,
            (rollbackError: Error) => rollbackError,
          );
      observer.rolledBack(tx);
      throw error;
    } finally {
      client.off('error', onLost);
      // A connection lost, or whose rollback failed or went unanswered, is in no state to serve anyone:
      // the pool destroys it.
      client.release(broken);
    }
    for (const then of tx.afterCommit) then();
    return value;
  }

  async function nested<T>(frame: Frame, fn: () => Promise<T>): Promise<T> {
    const { tx } = frame;
    // A nested transaction its caller did not await may outlive the transaction: its statements
    // must not reach the connection, which by then serves another caller's transaction.
    const stillOpen = () => {
      if (!tx.open) throw new Error('The transaction ended before a nested transaction of it: await it inside.');
    };
    const run = async () => {
      stillOpen();
      const name = `nested_${++tx.savepoints}`;
      await tx.client.query(`SAVEPOINT ${name}`);
      try {
        const value = await context.run({ tx, queue: Promise.resolve() }, fn);
        stillOpen();
        await tx.client.query(`RELEASE SAVEPOINT ${name}`);
        return value;
      } catch (error) {
        // A rollback that fails leaves the transaction aborted: its commit will be refused.
        if (tx.open) await tx.client.query(`ROLLBACK TO SAVEPOINT ${name}`).catch(() => {});
        observer.savepointRolledBack(tx);
        throw error;
      }
    };
    const result = frame.queue.then(run);
    frame.queue = result.catch(() => {});
    return result;
  }

  const beginWrite = `BEGIN; SELECT pg_advisory_xact_lock(${WRITE_LOCK_KEY}); ${BUMP_REVISION}`;
  const beginRead = `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; ${READ_REVISION}`;
  return {
    write<T>(fn: () => Promise<T>): Promise<T> {
      const frame = openFrame();
      return frame ? nested(frame, fn) : oneWriteAtATime(() => top('write', beginWrite, fn));
    },
    read<T>(fn: () => Promise<T>): Promise<T> {
      const frame = openFrame();
      return frame ? nested(frame, fn) : top('read', beginRead, fn);
    },
    current: () => openFrame()?.tx,
    client: () => openFrame()?.tx.client,
    afterCommit(fn) {
      const tx = openFrame()?.tx;
      if (tx) tx.afterCommit.push(fn);
      else fn();
    },
  };
}
