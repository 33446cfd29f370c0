// The waits of `hsa-fsa-sandbox listen`'s long poll (delivery/listeners.ts), in process on a store
// of its own: a waiting claim wakes at once when a delivery is queued or a hold comes free, and
// only then (else at its next look); a client that goes away, or a sandbox that closes, answers it
// at once; a claim takes no more than the listener may hold; the sweep removes, every few
// seconds, the listeners that stopped asking. A listener is in use while a claim of it waits, or
// for 35 s after it asked, unless its last claim's client went away.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CLAIM_MOST,
  FIRST_CLAIM_MS,
  HOLD_MOST,
  IDLE_EXPIRY_MS,
  IN_USE_MS,
  WebhookListeners,
} from '../../src/sandbox/delivery/listeners.js';
import { createStore, openDatabase, type Store } from '../../src/sandbox/store/index.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';
import type { SandboxStore } from '../../src/sandbox/store/store.js';

const FORWARD = 'http://localhost:3000/webhooks';
let db: ReturnType<typeof openDatabase>;
let store: Store;
let now: number;
let hub: WebhookListeners;

beforeEach(() => {
  db = openDatabase(':memory:');
  store = createStore(db);
  now = Date.now();
  hub = new WebhookListeners(sqliteBackend(store), { now: () => now });
});
afterEach(() => {
  vi.useRealTimers();
  hub.close();
  if (db.open) db.close();
});

const listener = (id = 'wl_a', channel = 'dev') => {
  const record = {
    id,
    channel,
    url: FORWARD,
    event_types: ['*'],
    secret: 'whsec_x',
    mode: 'signed' as const,
    created_at: new Date(now).toISOString(),
    polled_at: now,
  };
  store.listeners.add(record);
  return store.listeners.liveOne(channel, id, hub.cutoff())!;
};
let events = 0;
const queue = (count = 1, channel = 'dev') =>
  store.transaction(() => {
    for (let i = 0; i < count; i++) {
      events++;
      store.outbox.enqueue(
        channel,
        { event_type: 'dispute.created', data: { dispute_id: `d-${events}` } },
        store.clock.now(channel),
        `dlv_${events}`,
      );
    }
  });
/** A wait, and whether it has ended. */
const waitFor = (ms: number, signal = new AbortController().signal) => {
  const state = { ended: false };
  const done = hub.nextChance(ms, signal).then(() => {
    state.ended = true;
  });
  return { state, done };
};
/** Lets setImmediate callbacks, and the promises they resolve, run. */
const turn = async () => {
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
};

describe('a waiting claim', () => {
  it('wakes as soon as a delivery is queued, long before its next look', async () => {
    listener();
    const wait = waitFor(60_000);
    await turn();
    expect(wait.state.ended).toBe(false);
    queue();
    await turn();
    expect(wait.state.ended).toBe(true);
  });

  it('is not woken by nothing: without a delivery it waits for its next look (250 ms at most)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const wait = waitFor(60_000);
    await vi.advanceTimersByTimeAsync(249);
    expect(wait.state.ended).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(wait.state.ended).toBe(true);
  });

  it('waits no longer than it asked, when that is sooner than the next look', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const wait = waitFor(40);
    await vi.advanceTimersByTimeAsync(39);
    expect(wait.state.ended).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(wait.state.ended).toBe(true);
    const past = waitFor(-5);
    await vi.advanceTimersByTimeAsync(0);
    expect(past.state.ended).toBe(true);
  });

  it('finds the delivery a claim holds, none under another claim, and wakes every waiting claim on a report', async () => {
    const stored = listener();
    queue(2);
    const [first] = await sqliteBackend(store).transaction(() => hub.claim(stored, 1));
    const waits = [waitFor(60_000), waitFor(60_000)];
    expect(await hub.held(stored.id, 999_999, first!.claimId)).toBeUndefined();
    expect(await hub.held(stored.id, first!.delivery.id, 'lc_other')).toBeUndefined();
    expect(await hub.held('wl_other', first!.delivery.id, first!.claimId)).toBeUndefined();
    expect(await hub.held(stored.id, first!.delivery.id, first!.claimId)).toMatchObject({
      claim: first!.delivery.claim,
    });
    await turn();
    expect(waits.map((w) => w.state.ended)).toEqual([false, false]);
    hub.reported();
    await turn();
    expect(waits.map((w) => w.state.ended)).toEqual([true, true]);
  });

  it('ends at once when the client goes away, and is woken no more after', async () => {
    listener();
    const gone = new AbortController();
    const wait = waitFor(60_000, gone.signal);
    await turn();
    expect(wait.state.ended).toBe(false);
    gone.abort();
    await turn();
    expect(wait.state.ended).toBe(true);
    // A client already gone is answered at once.
    const late = waitFor(60_000, gone.signal);
    await turn();
    expect(late.state.ended).toBe(true);
  });

  it('ends at once when the sandbox closes, and a claim that waits after that is answered at once', async () => {
    const waits = [waitFor(60_000), waitFor(60_000)];
    await turn();
    hub.close();
    await turn();
    expect(waits.map((w) => w.state.ended)).toEqual([true, true]);
    expect(hub.closing).toBe(true);
    const after = waitFor(60_000);
    await turn();
    expect(after.state.ended).toBe(true);
    // Closed, it no longer listens for queued deliveries: a queue wakes no one and fails nothing.
    listener();
    expect(() => queue()).not.toThrow();
  });
});

describe('a claim', () => {
  it('hands at most what the listener may still hold, and nothing while it holds the most', async () => {
    const stored = listener();
    queue(HOLD_MOST + 4);
    expect(await sqliteBackend(store).transaction(() => hub.claim(stored, 0))).toEqual([]);
    // A negative limit is no limit to SQLite: the claim must not pass it on.
    expect(await sqliteBackend(store).transaction(() => hub.claim(stored, -1))).toEqual([]);
    expect(await sqliteBackend(store).transaction(() => hub.claim(stored, 3))).toHaveLength(3);
    let held = 3;
    while (held < HOLD_MOST) held += (await sqliteBackend(store).transaction(() => hub.claim(stored))).length;
    expect(held).toBe(HOLD_MOST);
    expect(await sqliteBackend(store).transaction(() => hub.claim(stored))).toEqual([]);
    expect(await hub.hasDue(stored)).toBe(false);
    expect(CLAIM_MOST).toBeLessThan(HOLD_MOST);
  });

  it("keeps its leases in the database: another sandbox's hub claims none of them, and finds the claim for its report", async () => {
    const stored = listener();
    queue(1);
    const [claimed] = await sqliteBackend(store).transaction(() => hub.claim(stored));
    const other = new WebhookListeners(sqliteBackend(store), { now: () => now });
    try {
      expect(await sqliteBackend(store).transaction(() => other.claim(stored))).toEqual([]);
      expect(await other.hasDue(stored)).toBe(false);
      expect(await other.held(stored.id, claimed!.delivery.id, claimed!.claimId)).toMatchObject({
        claim: claimed!.delivery.claim,
      });
      // Forgetting the listener here forgets nothing of the database's leases.
      hub.forget(stored.id);
      expect(await sqliteBackend(store).transaction(() => hub.claim(stored))).toEqual([]);
    } finally {
      other.close();
    }
  });
});

describe('a listener in use by a command line', () => {
  /** A listener as stored, its last request `ago` ms before now (inUse reads no more than that). */
  const asked = (ago: number) => ({
    id: 'wl_a',
    channel: 'dev',
    url: FORWARD,
    event_types: ['*'],
    secret: 'whsec_x',
    mode: 'signed' as const,
    created_at: new Date(now).toISOString(),
    polled_at: now - ago,
  });

  it('is one that asked within 35 s (the longest wait of a claim, and 5 s), and no longer', () => {
    expect(IN_USE_MS).toBe(35_000);
    expect(hub.inUse(asked(0))).toBe(true);
    expect(hub.inUse(asked(IN_USE_MS - 1))).toBe(true);
    expect(hub.inUse(asked(IN_USE_MS))).toBe(false);
    expect(hub.inUse(asked(IN_USE_MS + 1))).toBe(false);
  });

  it('is one a claim of which waits, however long ago it asked, until the claim ends', () => {
    const ended = hub.claimWaits('wl_a');
    expect(hub.inUse(asked(IN_USE_MS * 10))).toBe(true);
    ended(false);
    expect(hub.inUse(asked(IN_USE_MS * 10))).toBe(false);
    // A claim that ended as answered leaves the listener to the 35 s after it asked.
    expect(hub.inUse(asked(0))).toBe(true);
  });

  it("is not one whose last claim's client went away, though it asked just now, until a claim or a take-up", () => {
    hub.claimWaits('wl_a')(true);
    expect(hub.inUse(asked(0))).toBe(false);
    // Another listener is not concerned.
    expect(hub.inUse({ ...asked(0), id: 'wl_b' })).toBe(true);
    hub.registered('wl_a', now - 5000);
    expect(hub.inUse(asked(0))).toBe(true);
    hub.claimWaits('wl_a')(true);
    const ended = hub.claimWaits('wl_a');
    expect(hub.inUse(asked(IN_USE_MS))).toBe(true);
    ended(false);
    expect(hub.inUse(asked(0))).toBe(true);
  });

  it('stays in use while another of its claims waits, whichever client went away', () => {
    const first = hub.claimWaits('wl_a');
    const second = hub.claimWaits('wl_a');
    first(true);
    expect(hub.inUse(asked(IN_USE_MS))).toBe(true);
    second(false);
    expect(hub.inUse(asked(IN_USE_MS))).toBe(false);
    expect(hub.inUse(asked(0))).toBe(true);
  });

  it('is one registered here that has not asked since for 1 s only: a command line claims at once', () => {
    expect(FIRST_CLAIM_MS).toBe(1000);
    hub.registered('wl_a', now - (FIRST_CLAIM_MS - 1));
    expect(hub.inUse(asked(FIRST_CLAIM_MS - 1))).toBe(true);
    hub.registered('wl_a', now - FIRST_CLAIM_MS);
    expect(hub.inUse(asked(FIRST_CLAIM_MS))).toBe(false);
    // Once it asked (its polled_at moved, here or through another sandbox), the 35 s hold.
    expect(hub.inUse(asked(FIRST_CLAIM_MS - 10))).toBe(true);
    expect(hub.inUse({ ...asked(FIRST_CLAIM_MS), id: 'wl_b' })).toBe(true);
  });

  it('forgets when it was registered once a claim of it waits, or once it is forgotten', () => {
    hub.registered('wl_a', now - 2000);
    hub.claimWaits('wl_a')(false);
    expect(hub.inUse(asked(2000))).toBe(true);
    hub.registered('wl_a', now - 2000);
    hub.forget('wl_a');
    expect(hub.inUse(asked(2000))).toBe(true);
  });

  it('is known no more once forgotten: a claim that ends after changes nothing', () => {
    const ended = hub.claimWaits('wl_a');
    hub.forget('wl_a');
    expect(hub.inUse(asked(IN_USE_MS))).toBe(false);
    ended(true);
    expect(hub.inUse(asked(0))).toBe(true);
    hub.claimWaits('wl_a')(true);
    hub.forget('wl_a');
    expect(hub.inUse(asked(0))).toBe(true);
  });
});

describe('the sweep', () => {
  it('does not keep the process alive: its timer is unreferenced', () => {
    const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
    const before = timers();
    const another = new WebhookListeners(sqliteBackend(store), { now: () => now });
    try {
      expect(timers()).toBe(before);
    } finally {
      another.close();
    }
  });

  it('removes, on its own every 5 s, the listeners that stopped asking, with their deliveries', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    hub.close();
    hub = new WebhookListeners(sqliteBackend(store), { now: () => now });
    const stored = listener();
    listener('wl_b');
    queue(1);
    const [claimed] = await sqliteBackend(store).transaction(() => hub.claim(stored));
    now += IDLE_EXPIRY_MS + 1;
    store.listeners.touch('wl_b', now);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(db.prepare("SELECT id FROM webhook_endpoints WHERE origin = 'listener' ORDER BY id").pluck().all()).toEqual([
      'wl_a',
      'wl_b',
    ]);
    await vi.advanceTimersByTimeAsync(1);
    expect(db.prepare("SELECT id FROM webhook_endpoints WHERE origin = 'listener' ORDER BY id").pluck().all()).toEqual([
      'wl_b',
    ]);
    expect(db.prepare("SELECT COUNT(*) FROM deliveries WHERE endpoint_id = 'wl_a'").pluck().get()).toBe(0);
    // Its leases went with it: a listener of the same id starts holding nothing.
    expect(await hub.held('wl_a', claimed!.delivery.id, claimed!.claimId)).toBeUndefined();
  });

  it('skips a closed database without a word', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    hub.close();
    hub = new WebhookListeners(sqliteBackend(store), { now: () => now });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      listener();
      now += IDLE_EXPIRY_MS + 1;
      db.close();
      await vi.advanceTimersByTimeAsync(5_000);
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
  });

  it('reports a failure other than a busy database, and stays quiet on a busy one', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    hub.close();
    const failing: SandboxStore = {
      ...sqliteBackend(store),
      transaction: async () => {
        throw new Error(failure);
      },
    };
    let failure = 'SQLITE_BUSY: database is locked';
    hub = new WebhookListeners(failing, { now: () => now });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await vi.advanceTimersByTimeAsync(5_000);
      expect(errors).not.toHaveBeenCalled();
      failure = 'disk I/O error';
      await vi.advanceTimersByTimeAsync(5_000);
      expect(errors).toHaveBeenCalledWith('webhook listeners: disk I/O error');
      hub.close();
      await vi.advanceTimersByTimeAsync(20_000);
      expect(errors).toHaveBeenCalledTimes(1);
    } finally {
      errors.mockRestore();
    }
  });
});
