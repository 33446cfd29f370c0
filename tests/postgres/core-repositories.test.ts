// The small repositories of the PostgreSQL store's core (clock, faults, features, drill, customers,
// page secret, reset), each the twin of its SQLite file: the same calls give the same answers on
// both backends; and where several sandboxes act at once, one effect (a fault spent once, one
// business id per customer).
import { describe, expect, it } from 'vitest';
import type { ArmedFault } from '../../src/sandbox/store/faults.js';
import { createStore, openDatabase } from '../../src/sandbox/store/index.js';
import { clockRepository } from '../../src/sandbox/store/postgres/clock.js';
import { newDatabase, openCore, twoSandboxes } from './core-support.js';

const FAULT: ArmedFault = { status: 400, error: 'InvalidRequest' };

describe('the same calls give the same answers as the SQLite store', () => {
  it('clock, faults, features, drill, customers and reset', async () => {
    const pg = await openCore(await newDatabase('twins_core'), { drill: { enabled: true, service_fee: 'string' } });
    const sqlite = createStore(openDatabase(':memory:'), { drill: { enabled: true, service_fee: 'string' } });
    const answers = async (store: typeof pg | typeof sqlite, write: <T>(fn: () => T | Promise<T>) => Promise<T>) => {
      const seen: unknown[] = [];
      const note = async (value: unknown) => void seen.push(await value);
      await note(write(() => store.clock.offsetSeconds('dev')));
      await write(() => store.clock.advance('dev', 90));
      await write(() => store.clock.advance('dev', 30));
      await note(write(() => store.clock.offsetSeconds('dev')));
      await note(write(() => store.clock.offsetSeconds('other')));
      await note(write(() => store.faults.anyArmed('dev')));
      await write(() => store.faults.arm('dev', 'listDisputes', FAULT, 2));
      await write(() => store.faults.arm('dev', 'createPaymentSession', { status: 500, error: 'ServerError' }, 1));
      await note(write(() => store.faults.anyArmed('dev')));
      await note(write(() => store.faults.anyArmed('other')));
      for (let i = 0; i < 3; i++) await note(write(() => store.faults.take('dev', 'listDisputes')));
      await note(write(() => store.faults.take('dev', 'createPaymentSession')));
      await note(write(() => store.faults.anyArmed('dev')));
      await note(write(() => store.features.get('dev')));
      await write(() => store.features.set('dev', { authorization: false, tokenization: true }));
      await note(write(() => store.features.get('dev')));
      await note(write(() => store.drill.get('dev')));
      await write(() => store.drill.set('dev', { enabled: false, service_fee: 'number' }));
      await note(write(() => store.drill.get('dev')));
      await note(write(() => store.drill.get('other')));
      let minted = 0;
      const mint = () => `biz_${++minted}`;
      await note(write(() => store.customers.businessIdOf('dev', 'ann@example.com', mint)));
      await note(write(() => store.customers.businessIdOf('dev', 'bob@example.com', mint)));
      await note(write(() => store.customers.businessIdOf('dev', 'ann@example.com', mint)));
      await note(write(() => store.reset.channel('other')));
      await note(write(() => store.reset.channel('dev')));
      await note(write(() => store.clock.offsetSeconds('dev')));
      await note(write(() => store.features.get('dev')));
      await note(write(() => store.faults.anyArmed('dev')));
      await note(write(() => store.customers.businessIdOf('dev', 'ann@example.com', mint)));
      await note(write(() => store.reset.all()));
      return seen;
    };
    const fromPg = await answers(pg, (fn) => pg.transaction(async () => fn()));
    const fromSqlite = await answers(sqlite, async (fn) => sqlite.transaction(fn) as never);
    expect(fromPg).toEqual(fromSqlite);
    sqlite.db.close();
  });
});

describe('the clock', () => {
  it('stops at the end of year 9999, however long real time runs', async () => {
    const core = await openCore(await newDatabase('clock_end'));
    let real = Date.parse('9999-12-31T23:59:00Z');
    const clock = clockRepository(core.q, core.facts, () => real);
    await core.transaction(() => clock.advance('dev', 30));
    real += 10 * 60_000;
    expect(await clock.now('dev')).toBe('9999-12-31T23:59:59.999Z');
  });
});

describe('several sandboxes at once', () => {
  it('spend a fault armed once only once between them', async () => {
    const [first, second] = await twoSandboxes('faults_once');
    await first.transaction(() => first.faults.arm('dev', 'listDisputes', FAULT, 1));
    const taken = await Promise.all(
      [first, second, first, second].map((store) => store.transaction(() => store.faults.take('dev', 'listDisputes'))),
    );
    expect(taken.filter((fault) => fault !== undefined)).toEqual([FAULT]);
  });

  it('give a customer one business id, whichever sandbox mints it first', async () => {
    const [first, second] = await twoSandboxes('customers_once');
    const ids = await Promise.all(
      [first, second, first, second].map((store, i) =>
        store.transaction(() => store.customers.businessIdOf('dev', 'ann@example.com', () => `biz_${i}`)),
      ),
    );
    expect(new Set(ids).size).toBe(1);
  });

  it('share one page secret, which a reset keeps', async () => {
    const url = await newDatabase('page_secret');
    const first = await openCore(url);
    const secret = await first.pageSecret.get();
    expect(secret).toHaveLength(32);
    expect((await (await openCore(url)).pageSecret.get()).equals(secret)).toBe(true);
    await first.transaction(() => first.reset.all());
    expect((await (await openCore(url)).pageSecret.get()).equals(secret)).toBe(true);
  });
});
