// The rules of the PostgreSQL store's transactions (store/postgres/transactions.ts) that the core's
// tests (core-transactions.test.ts) leave open: the bounded queue of a sandbox's writes, what
// becomes of a connection whose transaction failed (given back, or destroyed when the server did not
// answer), what its observer is told, and the nested transactions that outlive theirs.
import type pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openPool, routedQueries } from '../../src/sandbox/store/postgres/connection.js';
import type { Transaction } from '../../src/sandbox/store/postgres/transaction.js';
import { type TransactionOptions, transactions } from '../../src/sandbox/store/postgres/transactions.js';
import { StoreUnavailable } from '../../src/sandbox/store/unavailable.js';
import { newDatabase, openCore } from './core-support.js';

type Core = Awaited<ReturnType<typeof openCore>>;

const addCustomer = (core: Pick<Core, 'q'>, key: string) =>
  core.q.run("INSERT INTO customers (channel, customer_key, business_id) VALUES ('dev', $1, $2)", [key, `biz_${key}`]);
const customerKeys = (core: Pick<Core, 'q'>) =>
  core.q.column<string>("SELECT customer_key FROM customers WHERE channel = 'dev' ORDER BY 1");
const backendPid = (core: Pick<Core, 'q'>) => core.q.value<number>('SELECT pg_backend_pid()');

/** A promise the test settles when it chooses. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

const pools: pg.Pool[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(pools.splice(0).map((pool) => pool.end()));
});

/**
 * The transactions of a pool of their own on a migrated database, with their queries, and what
 * their observer was told, in order.
 */
async function ownTransactions(label: string, options: TransactionOptions = {}) {
  const url = await newDatabase(label);
  await openCore(url);
  const pool = openPool(url);
  pools.push(pool);
  const told: string[] = [];
  const note = (what: string) => (tx: Transaction) => told.push(`${what} ${tx.kind}`);
  const tx = transactions(
    pool,
    {
      began: note('began'),
      committed: note('committed'),
      rolledBack: note('rolled back'),
      savepointRolledBack: note('savepoint rolled back'),
    },
    options,
  );
  return { tx, q: routedQueries(pool, tx.client, tx.write), told };
}

describe("a sandbox's write waiting its turn", () => {
  it('gives up with StoreUnavailable once it has waited longer than the bound, and is never run', async () => {
    const { tx, q } = await ownTransactions('tx_queue_bound', { writeQueueWaitMs: 50 });
    const holding = gate();
    const first = tx.write(() => holding.promise);
    const second = tx.write(() => addCustomer({ q }, 'given_up'));
    const refusal = await second.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(StoreUnavailable);
    expect((refusal as Error).message).toBe('A write waited 50 ms for the writes before it, and gave up.');
    holding.open();
    await first;
    // The queue moves on past it: the next write runs, and the one given up never did.
    await tx.write(() => addCustomer({ q }, 'next'));
    expect(await customerKeys({ q })).toEqual(['next']);
  });

  it('leaves no timer behind once its turn has come (none holds the process open after the write)', async () => {
    // A pool of one client that answers every statement at once: only the queue's timers remain.
    const client = {
      query: async (text: string) =>
        text === 'COMMIT' ? { command: 'COMMIT', rows: [] } : [{ rows: [] }, { rows: [{ revision: 1 }] }],
      on() {},
      off() {},
      release() {},
    };
    const pool = { connect: async () => client } as unknown as pg.Pool;
    const ignore = () => {};
    const tx = transactions(pool, {
      began: ignore,
      committed: ignore,
      rolledBack: ignore,
      savepointRolledBack: ignore,
    });
    vi.useFakeTimers();
    expect(await tx.write(async () => 'written')).toBe('written');
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('the observer of the transactions', () => {
  it('is told of a transaction that began, then of its rollback when its function throws', async () => {
    const { tx, told } = await ownTransactions('tx_observer');
    await tx.write(async () => {});
    await expect(
      tx.write(async () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(told).toEqual(['began write', 'committed write', 'began write', 'rolled back write']);
  });
});

describe('the connection of a transaction that failed', () => {
  it('is given back to the pool when it rolled back: the next transaction runs on it', async () => {
    const core = await openCore(await newDatabase('tx_failed_reused'), { pool: { max: 1 } });
    let pid: number | undefined;
    await expect(
      core.transaction(async () => {
        pid = await backendPid(core);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await core.read(() => backendPid(core))).toBe(pid);
  });

  it('is destroyed when the driver gave up waiting for a statement: the next transaction runs on another', async () => {
    // The server is slow, not gone: the statement the driver gave up on still runs for a while, and
    // a ROLLBACK sent behind it would be answered once it ends.
    const core = await openCore(await newDatabase('tx_unanswered'), { pool: { max: 1, answerTimeoutMs: 1_000 } });
    let pid: number | undefined;
    await expect(
      core.read(async () => {
        pid = await backendPid(core);
        await core.q.value('SELECT pg_sleep(1.3)');
      }),
    ).rejects.toThrow('Query read timeout');
    const next = await core.read(() => backendPid(core));
    expect(next).toBeDefined();
    expect(next).not.toBe(pid);
  });

  it('is destroyed when its ROLLBACK went unanswered: none of its writes is committed by the next transaction', async () => {
    const url = await newDatabase('tx_rollback_unanswered');
    const core = await openCore(url, { pool: { max: 1, answerTimeoutMs: 1_000 } });
    const watcher = await openCore(url);
    await expect(
      core.transaction(async () => {
        await addCustomer(core, 'rolled_back');
        // A statement left running on the connection: the ROLLBACK waits behind it, past the driver's patience.
        void core.q.value('SELECT pg_sleep(2)').catch(() => {});
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    // Once the server has ended the statement, whoever holds that connection may send on it again.
    for (;;) {
      const running = await watcher.q.value(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND query = 'SELECT pg_sleep(2)'",
      );
      if (Number(running) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await core.transaction(() => addCustomer(core, 'next'));
    expect(await customerKeys(watcher)).toEqual(['next']);
  });

  it('is left with nothing listening on it by the transaction: the third on it is as the first', async () => {
    const core = await openCore(await newDatabase('tx_listeners'), { pool: { max: 1 } });
    const listening = () => core.transaction(async () => core.transactions.client()!.listenerCount('error'));
    const first = await listening();
    await listening();
    expect(await listening()).toBe(first);
  });
});

describe('a nested transaction that outlives its transaction', () => {
  it('fails, unrun, when its turn comes after its transaction committed', async () => {
    const core = await openCore(await newDatabase('tx_nested_queued'));
    const holding = gate();
    let first!: Promise<unknown>;
    let queued!: Promise<unknown>;
    await core.transaction(async () => {
      first = core.transaction(() => holding.promise);
      queued = core.transaction(() => addCustomer(core, 'queued'));
    });
    holding.open();
    await expect(first).rejects.toThrow(/ended before a nested transaction/);
    await expect(queued).rejects.toThrow(/ended before a nested transaction/);
    expect(await customerKeys(core)).toEqual([]);
  });

  it('fails once its transaction has rolled back, though its own function succeeded', async () => {
    const core = await openCore(await newDatabase('tx_nested_after_rollback'));
    const holding = gate();
    let late!: Promise<unknown>;
    await expect(
      core.transaction(async () => {
        late = core.transaction(() => holding.promise);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    holding.open();
    await expect(late).rejects.toThrow(/ended before a nested transaction/);
  });

  it('sends nothing when it fails after its transaction ended, to the connection now serving another', async () => {
    const core = await openCore(await newDatabase('tx_nested_late_failure'), { pool: { max: 1 } });
    const failing = gate();
    let late!: Promise<unknown>;
    await core.transaction(async () => {
      late = core.transaction(async () => {
        await failing.promise;
        throw new Error('late failure');
      });
    });
    // The next transaction, on the same connection, has a savepoint of the same name as the late one's.
    await core.transaction(() =>
      core.transaction(async () => {
        await addCustomer(core, 'kept');
        failing.open();
        await late.catch(() => {});
      }),
    );
    await expect(late).rejects.toThrow('late failure');
    expect(await customerKeys(core)).toEqual(['kept']);
  });
});

describe('a nested transaction that succeeded', () => {
  it('is released: what its transaction writes after it is written by the transaction, not in the savepoint', async () => {
    const core = await openCore(await newDatabase('tx_nested_released'));
    await core.transaction(async () => {
      await addCustomer(core, 'before');
      await core.transaction(() => addCustomer(core, 'inside'));
      await addCustomer(core, 'after');
    });
    // A row's xmin names the (sub)transaction that wrote it.
    const writer = Object.fromEntries(
      (
        await core.q.all<{ customer_key: string; xmin: string }>(
          "SELECT customer_key, xmin::text AS xmin FROM customers WHERE channel = 'dev'",
        )
      ).map((row) => [row.customer_key, row.xmin]),
    );
    expect(writer.inside).not.toBe(writer.before);
    expect(writer.after).toBe(writer.before);
  });
});

describe('work asked to run after a commit', () => {
  it('runs at once when asked for outside any transaction', async () => {
    const core = await openCore(await newDatabase('tx_after_commit_outside'));
    let ran = false;
    core.transactions.afterCommit(() => {
      ran = true;
    });
    expect(ran).toBe(true);
  });
});
