// The transactions of the PostgreSQL store (store/postgres/transactions.ts): a write commits whole
// or not at all, also when it is cut off midway; a nested transaction is a savepoint; a statement
// that failed inside a transaction fails its commit; one advisory lock serializes the writes of
// every sandbox; writes that arrive together share one commit; work a write queues is woken once
// it has committed.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { openCore, newDatabase, twoSandboxes } from './core-support.js';

const count = async (core: { q: { value<T>(text: string): Promise<T | undefined> } }, channel = 'dev') =>
  Number(await core.q.value(`SELECT count(*) FROM customers WHERE channel = '${channel}'`));
const addCustomer = (core: { q: { run(text: string, params: unknown[]): Promise<number> } }, key: string) =>
  core.q.run("INSERT INTO customers (channel, customer_key, business_id) VALUES ('dev', $1, $2)", [key, `biz_${key}`]);
const revision = async (core: { q: { value<T>(text: string): Promise<T | undefined> } }) =>
  Number(await core.q.value('SELECT revision FROM store_revision'));

describe('a write transaction', () => {
  it('commits all of its writes together', async () => {
    const core = await openCore(await newDatabase('tx_commit'));
    await core.transaction(async () => {
      await addCustomer(core, 'a');
      await addCustomer(core, 'b');
    });
    expect(await count(core)).toBe(2);
  });

  it('rolls back all of its writes when its function throws', async () => {
    const core = await openCore(await newDatabase('tx_rollback'));
    await expect(
      core.transaction(async () => {
        await addCustomer(core, 'a');
        await addCustomer(core, 'b');
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await count(core)).toBe(0);
  });

  it('is not committed when one of its statements failed, though its function went on', async () => {
    const core = await openCore(await newDatabase('tx_aborted'));
    await expect(
      core.transaction(async () => {
        await addCustomer(core, 'a');
        await addCustomer(core, 'a').catch(() => {});
      }),
    ).rejects.toThrow(/rolled back|aborted/);
    expect(await count(core)).toBe(0);
  });

  it('runs a nested transaction in a savepoint: rolled back alone, the rest commits', async () => {
    const core = await openCore(await newDatabase('tx_nested'));
    await core.transaction(async () => {
      await addCustomer(core, 'a');
      await expect(
        core.transaction(async () => {
          await addCustomer(core, 'b');
          await addCustomer(core, 'a');
        }),
      ).rejects.toThrow(/duplicate key/);
      await addCustomer(core, 'c');
    });
    expect(await core.q.column("SELECT customer_key FROM customers WHERE channel = 'dev' ORDER BY 1")).toEqual([
      'a',
      'c',
    ]);
  });

  it('leaves nothing written when its connection is cut off midway', async () => {
    const core = await openCore(await newDatabase('tx_cut_off'));
    const outsider = await openCore(await newDatabase('tx_cut_off_admin'));
    await expect(
      core.transaction(async () => {
        await addCustomer(core, 'a');
        const pid = await core.q.value<number>('SELECT pg_backend_pid()');
        // Another connection ends this one's backend, as a crash of the server process or a lost network would.
        await outsider.q.value('SELECT pg_terminate_backend($1)', [pid]);
        await addCustomer(core, 'b');
      }),
    ).rejects.toThrow();
    expect(await count(core)).toBe(0);
    // The pool dropped the dead connection, and serves the next write on a new one.
    await core.transaction(() => addCustomer(core, 'c'));
    expect(await count(core)).toBe(1);
  });

  it('leaves nothing written, and the write lock free, when its process is killed midway (kill -9)', async () => {
    const url = await newDatabase('tx_killed');
    const core = await openCore(url);
    const killed = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'core-killed-writer.ts'), url],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const [line] = (await once(createInterface({ input: killed.stdout }), 'line')) as [string];
    expect(line).toBe('writing');
    killed.kill('SIGKILL');
    await once(killed, 'exit');
    // The server ends the dead process's transaction and its lock with its connection: this write takes the lock.
    await core.transaction(() => addCustomer(core, 'after'));
    expect(await core.q.column("SELECT customer_key FROM customers WHERE channel = 'dev'")).toEqual(['after']);
  });

  it('is ended by the server when it idles past the timeout, leaving nothing written and the lock free', async () => {
    const url = await newDatabase('tx_idle');
    const idler = await openCore(url, { pool: { idleInTransactionTimeoutMs: 200 } });
    const other = await openCore(url);
    await expect(
      idler.transaction(async () => {
        await addCustomer(idler, 'a');
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        await addCustomer(idler, 'b');
      }),
    ).rejects.toThrow();
    await other.transaction(() => addCustomer(other, 'c'));
    expect(await other.q.column("SELECT customer_key FROM customers WHERE channel = 'dev'")).toEqual(['c']);
    // The idler's pool serves again on a new connection.
    await idler.transaction(() => addCustomer(idler, 'd'));
    expect(await count(idler)).toBe(2);
  });

  it('bumps the revision once, in the same transaction, and not when it rolls back', async () => {
    const core = await openCore(await newDatabase('tx_revision'));
    const before = await revision(core);
    await core.transaction(async () => {
      await addCustomer(core, 'a');
      await addCustomer(core, 'b');
    });
    expect(await revision(core)).toBe(before + 1);
    await expect(
      core.transaction(async () => {
        await addCustomer(core, 'c');
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await revision(core)).toBe(before + 1);
  });

  it('outside any transaction, a statement run for its effect is a write transaction of its own', async () => {
    const core = await openCore(await newDatabase('tx_alone'));
    const before = await revision(core);
    await addCustomer(core, 'a');
    expect(await revision(core)).toBe(before + 1);
  });
});

describe('a nested transaction its caller did not await', () => {
  it('fails once its transaction has ended, and sends nothing more on the released connection', async () => {
    const core = await openCore(await newDatabase('tx_not_awaited'));
    let late!: Promise<unknown>;
    await core.transaction(async () => {
      await addCustomer(core, 'a');
      late = core.transaction(async () => {
        await new Promise((resolve) => setTimeout(resolve, 100));
        await addCustomer(core, 'b');
      });
    });
    await expect(late).rejects.toThrow(/ended before a nested transaction/);
    // Its statement after the end ran on the pool, as any work left behind does (b); the next
    // transaction on the released connection is whole (c).
    await core.transaction(() => addCustomer(core, 'c'));
    expect(await core.q.column("SELECT customer_key FROM customers WHERE channel = 'dev' ORDER BY 1")).toEqual([
      'a',
      'b',
      'c',
    ]);
  });
});

describe('the write lock', () => {
  it("serializes two sandboxes' read-then-write transactions: neither loses the other's write", async () => {
    const [first, second] = await twoSandboxes('tx_lock');
    let firstHasRead!: () => void;
    const hasRead = new Promise<void>((resolve) => {
      firstHasRead = resolve;
    });
    // Each reads the offset, then writes it plus one: without the lock both would read 0.
    const increment = (core: typeof first, read: () => void) =>
      core.transaction(async () => {
        const offset = (await core.q.value<number>("SELECT offset_ms FROM channel_clocks WHERE channel = 'dev'")) ?? 0;
        read();
        await new Promise((resolve) => setTimeout(resolve, 100));
        await core.q.run(
          "INSERT INTO channel_clocks (channel, offset_ms) VALUES ('dev', $1) " +
            'ON CONFLICT (channel) DO UPDATE SET offset_ms = $1',
          [offset + 1],
        );
      });
    const one = increment(first, firstHasRead);
    await hasRead;
    const two = increment(second, () => {});
    await Promise.all([one, two]);
    expect(await first.q.value("SELECT offset_ms FROM channel_clocks WHERE channel = 'dev'")).toBe(2);
  });

  it('leaves reads free while a write holds it', async () => {
    const [writer, reader] = await twoSandboxes('tx_lock_reads');
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holding!: () => void;
    const isHolding = new Promise<void>((resolve) => {
      holding = resolve;
    });
    const writing = writer.transaction(async () => {
      await addCustomer(writer, 'a');
      holding();
      await released;
    });
    await isHolding;
    expect(await reader.read(() => count(reader))).toBe(0);
    release();
    await writing;
    expect(await reader.read(() => count(reader))).toBe(1);
  });
});

describe('a read', () => {
  it('reads one snapshot, whatever commits meanwhile', async () => {
    const [reader, writer] = await twoSandboxes('tx_snapshot');
    let readOnce!: () => void;
    const hasReadOnce = new Promise<void>((resolve) => {
      readOnce = resolve;
    });
    let written!: () => void;
    const hasWritten = new Promise<void>((resolve) => {
      written = resolve;
    });
    const reading = reader.read(async () => {
      const first = await count(reader);
      readOnce();
      await hasWritten;
      return [first, await count(reader)];
    });
    await hasReadOnce;
    await writer.transaction(() => addCustomer(writer, 'a'));
    written();
    expect(await reading).toEqual([0, 0]);
    expect(await reader.read(() => count(reader))).toBe(1);
  });

  it('refuses to write', async () => {
    const core = await openCore(await newDatabase('tx_read_only'));
    await expect(core.read(() => addCustomer(core, 'a'))).rejects.toThrow(/read-only/);
  });
});

describe('group commit', () => {
  it('commits the writes that arrive together in one transaction, each alone in a savepoint', async () => {
    const core = await openCore(await newDatabase('tx_group'));
    const before = await revision(core);
    const outcomes = await Promise.allSettled([
      core.write(() => addCustomer(core, 'a')),
      core.write(async () => {
        await addCustomer(core, 'b');
        await addCustomer(core, 'a');
      }),
      core.write(() => addCustomer(core, 'c')),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await core.q.column("SELECT customer_key FROM customers WHERE channel = 'dev' ORDER BY 1")).toEqual([
      'a',
      'c',
    ]);
    expect(await revision(core)).toBe(before + 1);
  });

  it('runs a write asked for inside a transaction in a savepoint of it, which may await it', async () => {
    const core = await openCore(await newDatabase('tx_group_nested'));
    const before = await revision(core);
    await core.transaction(async () => {
      await core.write(() => addCustomer(core, 'a'));
      await expect(core.write(() => addCustomer(core, 'a'))).rejects.toThrow(/duplicate key/);
      await addCustomer(core, 'b');
    });
    expect(await count(core)).toBe(2);
    expect(await revision(core)).toBe(before + 1);
  });

  it('answers a write only once it is committed: another sandbox reads it then', async () => {
    const [here, there] = await twoSandboxes('tx_group_answer');
    await here.write(() => addCustomer(here, 'a'));
    expect(await there.read(() => count(there))).toBe(1);
  });
});

describe('what a write wakes', () => {
  it('runs once the write has committed, and reads what it wrote', async () => {
    const core = await openCore(await newDatabase('tx_after_commit'));
    const seen: number[] = [];
    const woken = new Promise<void>((resolve) => {
      core.transaction(async () => {
        await addCustomer(core, 'a');
        core.transactions.afterCommit(async () => {
          seen.push(await count(core));
          resolve();
        });
      });
    });
    await woken;
    expect(seen).toEqual([1]);
  });

  it('never runs when the write rolls back', async () => {
    const core = await openCore(await newDatabase('tx_after_rollback'));
    let woken = false;
    await expect(
      core.transaction(async () => {
        core.transactions.afterCommit(() => {
          woken = true;
        });
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(woken).toBe(false);
  });
});

describe('work a transaction leaves behind', () => {
  it('runs on the pool once the transaction has ended, not on its released connection', async () => {
    const core = await openCore(await newDatabase('tx_left_behind'));
    let later!: Promise<number>;
    await core.transaction(async () => {
      later = new Promise((resolve) => setTimeout(() => resolve(count(core)), 50));
      await addCustomer(core, 'a');
    });
    expect(await later).toBe(1);
  });
});
