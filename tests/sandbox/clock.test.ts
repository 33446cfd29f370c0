// The sandbox's clock (POST /sandbox/v1/clock/advance): each channel has its own, one move takes it at
// most 10 years, and it stops at the end of year 9999.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OTHER_KEY, testSandbox, type TestSandbox } from '../../testkit/sandbox.js';

let s: TestSandbox;
beforeEach(() => {
  s = testSandbox();
});
afterEach(() => s.close());

const clockOf = async (key?: string) =>
  (await s.get('/sandbox/v1/clock', key ? { key } : {})).body.offset_seconds as number;

describe('the clock helper', () => {
  it('refuses to move the clock more than 10 years at once', async () => {
    const { status, body } = await s.post('/sandbox/v1/clock/advance', { seconds: 1e12 });
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'InvalidRequest' });
  });
});

describe('the clock is per channel', () => {
  it("advancing one channel leaves another channel's holds alone", async () => {
    const mine = await s.authorized();
    const theirs = await s.createSession({ kind: 'authorization' }, { key: OTHER_KEY });
    await s.post(`/sandbox/v1/payment_sessions/${theirs}/complete_checkout`, {}, { key: OTHER_KEY });
    await s.post('/sandbox/v1/clock/advance', { seconds: 7 * 24 * 3600 });
    expect(await clockOf()).toBe(7 * 24 * 3600);
    expect(await clockOf(OTHER_KEY)).toBe(0);
    expect((await s.post(`${s.session(mine)}/capture`, { total_amount: 100 })).body.error).toBe('SessionExpired');
    expect((await s.post(`${s.session(theirs)}/capture`, { total_amount: 100 }, { key: OTHER_KEY })).status).toBe(200);
  });
});

describe('the end of the clock', () => {
  it('the clock stops at the end of year 9999, however long real time runs', async () => {
    const { clockRepository } = await import('../../src/sandbox/store/clock.js');
    const { factCache } = await import('../../src/sandbox/store/fact-cache.js');
    let real = Date.parse('9999-12-31T23:59:00Z');
    const clock = clockRepository(s.store.db, factCache(s.store.db), () => real);
    clock.advance('dev', 30);
    real += 10 * 60_000;
    expect(clock.now('dev')).toBe('9999-12-31T23:59:59.999Z');
  });
});
