// The clock, faults, features and drill of each channel are cached by each sandbox
// (store/postgres/fact-cache.ts). The cache must never answer what the database no longer holds:
// another sandbox's commit empties it at this sandbox's next transaction or request, this
// sandbox's own writes replace what they change, a rolled-back write leaves no trace in it, and a
// read from before a write of this sandbox keeps nothing.
import { describe, expect, it } from 'vitest';
import type { PostgresCore } from '../../src/sandbox/store/postgres/core.js';
import { twoSandboxes } from './core-support.js';

const offset = (store: PostgresCore) => store.read(() => store.clock.offsetSeconds('dev'));
const FAULT = { status: 500 as const, error: 'ServerError' };

describe('the cached clock, faults and features', () => {
  it("see another sandbox's writes at this sandbox's next transaction", async () => {
    const [here, there] = await twoSandboxes('cache_next');
    expect(await offset(here)).toBe(0);
    expect(await here.read(() => here.faults.anyArmed('dev'))).toBe(false);
    expect(await here.read(() => here.features.get('dev'))).toEqual({ authorization: true, tokenization: true });
    expect(await here.read(() => here.drill.get('dev'))).toEqual({ enabled: false, service_fee: 'number' });

    await there.transaction(async () => {
      await there.clock.advance('dev', 3600);
      await there.faults.arm('dev', 'retrievePaymentSession', FAULT, 1);
      await there.features.set('dev', { authorization: false, tokenization: true });
      await there.drill.set('dev', { enabled: true, service_fee: 'string' });
    });
    expect(await offset(here)).toBe(3600);
    expect(await here.read(() => here.faults.anyArmed('dev'))).toBe(true);
    expect(await here.read(() => here.features.get('dev'))).toEqual({ authorization: false, tokenization: true });
    expect(await here.read(() => here.drill.get('dev'))).toEqual({ enabled: true, service_fee: 'string' });
    // A write transaction of this sandbox sees them too.
    expect(await here.transaction(() => here.clock.offsetSeconds('dev'))).toBe(3600);
  });

  it("see another sandbox's writes after revalidate(), as a request does when it starts", async () => {
    const [here, there] = await twoSandboxes('cache_revalidate');
    await here.revalidate();
    expect(await here.faults.anyArmed('dev')).toBe(false);
    await there.transaction(() => there.faults.arm('dev', 'listDisputes', FAULT, 1));
    // Without a look at the database, the cache still holds the old answer...
    expect(await here.faults.anyArmed('dev')).toBe(false);
    // ...and one look is enough.
    await here.revalidate();
    expect(await here.faults.anyArmed('dev')).toBe(true);
  });

  it("follow this sandbox's own writes at once", async () => {
    const [here] = await twoSandboxes('cache_own');
    expect(await offset(here)).toBe(0);
    await here.transaction(() => here.clock.advance('dev', 60));
    expect(await here.clock.offsetSeconds('dev')).toBe(60);
    await here.transaction(() => here.faults.arm('dev', 'listDisputes', FAULT, 1));
    expect(await here.faults.anyArmed('dev')).toBe(true);
    expect(await here.transaction(() => here.faults.take('dev', 'listDisputes'))).toEqual(FAULT);
    expect(await here.faults.anyArmed('dev')).toBe(false);
  });

  it('a write reads what it changed; a read beside it keeps the older value only until the commit', async () => {
    const [here] = await twoSandboxes('cache_in_write');
    expect(await offset(here)).toBe(0);
    let advanced!: () => void;
    const hasAdvanced = new Promise<void>((resolve) => {
      advanced = resolve;
    });
    let readBeside!: () => void;
    const hasReadBeside = new Promise<void>((resolve) => {
      readBeside = resolve;
    });
    const writing = here.transaction(async () => {
      await here.clock.advance('dev', 60);
      expect(await here.clock.offsetSeconds('dev')).toBe(60);
      advanced();
      await hasReadBeside;
    });
    await hasAdvanced;
    // Outside the write, from the committed state; the value it reads is cached meanwhile.
    expect(await offset(here)).toBe(0);
    expect(await here.clock.offsetSeconds('dev')).toBe(0);
    readBeside();
    await writing;
    expect(await here.clock.offsetSeconds('dev')).toBe(60);
    expect(await offset(here)).toBe(60);
  });

  it('forget a value written and read inside a transaction that rolled back', async () => {
    const [here] = await twoSandboxes('cache_rollback');
    expect(await offset(here)).toBe(0);
    await expect(
      here.transaction(async () => {
        await here.clock.advance('dev', 999);
        expect(await here.clock.offsetSeconds('dev')).toBe(999);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await here.clock.offsetSeconds('dev')).toBe(0);
    expect(await offset(here)).toBe(0);
  });

  it('forget a value written inside a savepoint that rolled back, though its transaction commits', async () => {
    const [here] = await twoSandboxes('cache_savepoint');
    await here.transaction(async () => {
      await expect(
        here.transaction(async () => {
          await here.clock.advance('dev', 999);
          expect(await here.clock.offsetSeconds('dev')).toBe(999);
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect(await here.clock.offsetSeconds('dev')).toBe(0);
    });
    expect(await offset(here)).toBe(0);
  });

  it('a read that began before a write of this sandbox committed keeps nothing of its older snapshot', async () => {
    const [here] = await twoSandboxes('cache_old_snapshot');
    await here.revalidate();
    let wrote!: () => void;
    const written = new Promise<void>((resolve) => {
      wrote = resolve;
    });
    const reading = here.read(async () => {
      // The snapshot is taken as the read begins: before the write below.
      await written;
      return here.features.get('dev');
    });
    await here.transaction(() => here.features.set('dev', { authorization: false, tokenization: false }));
    wrote();
    expect(await reading).toEqual({ authorization: true, tokenization: true });
    expect(await here.features.get('dev')).toEqual({ authorization: false, tokenization: false });
    expect(await here.read(() => here.features.get('dev'))).toEqual({ authorization: false, tokenization: false });
  });

  it('forget what a channel reset deleted, here and in another sandbox', async () => {
    const [here, there] = await twoSandboxes('cache_reset');
    await here.transaction(() => here.clock.advance('dev', 60));
    expect(await here.clock.offsetSeconds('dev')).toBe(60);
    expect(await offset(there)).toBe(60);
    await here.transaction(() => here.reset.channel('dev'));
    expect(await here.clock.offsetSeconds('dev')).toBe(0);
    expect(await offset(there)).toBe(0);
  });

  it('hand out copies: a caller that changes the features it read changes nothing stored', async () => {
    const [here] = await twoSandboxes('cache_copies');
    const features = await here.read(() => here.features.get('dev'));
    features.authorization = false;
    expect(await here.read(() => here.features.get('dev'))).toEqual({ authorization: true, tokenization: true });
  });
});
