// The dispatcher's wake-ups and its stop, seen through a send injected in place of the POST: a
// queued delivery goes out in the turn after the request that queued it, not on the timer; the
// timer sends retries as they come due, every tickMs; a slot freed by an attempt takes the next due
// delivery at once; stop waits for the attempts in flight, sends nothing more, and leaves no timer
// and no listener behind. And a failure of the database is reported, never fatal: the delivery
// stays due, and the next wake sends it.
// The timer is a fake one (only setInterval is faked), so that "not before the tick" is a fact.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AttemptOutcome, DeliveryRequest, SendAttempt } from '../../src/sandbox/delivery/attempt.js';
import { startDispatcher, type Dispatcher } from '../../src/sandbox/delivery/dispatcher.js';
import type { SandboxStore } from '../../src/sandbox/store/store.js';
import { testSandbox, type TestSandbox } from '../../testkit/sandbox.js';
import { until } from '../../testkit/webhook-receiver.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';

const OK: AttemptOutcome = {
  status: 204,
  response: { text: '', truncated: false, body_bytes: 0 },
  error: null,
  latencyMs: 3,
};
const FAILED: AttemptOutcome = {
  status: 500,
  response: { text: 'Internal Server Error', truncated: false, body_bytes: 21 },
  error: null,
  latencyMs: 3,
};

let s: TestSandbox;
let dispatcher: Dispatcher | undefined;
beforeEach(() => {
  s = testSandbox();
});
/** Answers whatever a held send has not answered yet, so that stopping does not wait for it. */
const unanswered: Array<() => void> = [];
afterEach(async () => {
  for (const answerAll of unanswered.splice(0)) answerAll();
  await dispatcher?.stop();
  dispatcher = undefined;
  vi.useRealTimers();
  vi.restoreAllMocks();
  await s.close();
});

/** The dispatcher's interval only: the rest of the sandbox keeps its real timers. */
const fakeTimer = () => vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
/** After the callbacks already scheduled for the next turn (a wake set by a queued delivery). */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A send that keeps every request and answers as `answer` says for the nth. */
function sender(answer: (n: number) => AttemptOutcome | Promise<AttemptOutcome>) {
  const sent: DeliveryRequest[] = [];
  const send: SendAttempt = async (request) => {
    sent.push(request);
    return answer(sent.length - 1);
  };
  return { sent, send };
}

/** A send whose answers the test gives, one by one. */
function heldSender() {
  const answers: Array<(outcome: AttemptOutcome) => void> = [];
  const { sent, send } = sender(() => new Promise<AttemptOutcome>((resolve) => answers.push(resolve)));
  unanswered.push(() => {
    for (const resolve of answers) resolve(OK);
  });
  return { sent, send, answer: (n: number, outcome: AttemptOutcome) => answers[n]!(outcome) };
}

/** The sandbox's store, with one of its deliveries reads failing the first time, as a locked database would. */
function storeFailingOnce(
  reads: 'allEndpoints' | 'deliveredByClaim' | 'endpoint' | 'release' | Array<'deliveredByClaim' | 'release'>,
  message: string,
): SandboxStore {
  const store = sqliteBackend(s.store);
  const real = store.deliveries;
  const failing = Object.fromEntries(
    [reads].flat().map((read) => {
      let failed = false;
      const once = (...args: unknown[]) => {
        if (!failed) {
          failed = true;
          return Promise.reject(new Error(message));
        }
        return (real[read] as (...a: unknown[]) => Promise<unknown>)(...args);
      };
      return [read, once];
    }),
  );
  return { ...store, deliveries: { ...real, ...failing } };
}

const addEndpoint = async () =>
  (await s.post('/sandbox/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/hooks', secret: 'whsec_test_secret' }))
    .body as { id: string };
/** One event: a cancelled session's payment_session_complete. */
const cancelled = async () => {
  const id = await s.createSession();
  await s.post(`/payments/v1/payment_session/${id}/cancel`);
  return id;
};
const advance = (seconds: number) => s.post('/sandbox/v1/clock/advance', { seconds });
const attemptCount = () => s.db.prepare('SELECT COUNT(*) FROM delivery_attempts').pluck().get() as number;
const dueCount = () =>
  s.store.deliveries
    .allEndpoints()
    .reduce(
      (n, e) => n + s.store.deliveries.due(e.id, s.store.clock.now(e.channel), { skip: [], limit: 100 }).length,
      0,
    );

describe('waking the dispatcher', () => {
  it('sends a queued delivery in the turn after the request that queued it, each time, without waiting for the timer', async () => {
    fakeTimer();
    const { sent, send } = sender(() => OK);
    dispatcher = startDispatcher(sqliteBackend(s.store), { send, tickMs: 60_000 });
    await addEndpoint();
    await cancelled();
    await nextTurn();
    expect(sent).toHaveLength(1);
    await until(() => attemptCount() === 1, 5000, 'the first attempt recorded');
    await cancelled();
    await nextTurn();
    expect(sent).toHaveLength(2);
  });

  it('wakes once for every delivery one transaction queues', async () => {
    fakeTimer();
    // Three events before any endpoint: none has a delivery yet.
    for (let i = 0; i < 3; i++) await cancelled();
    const events = await s.outbox();
    await addEndpoint();
    let looks = 0;
    const backend = sqliteBackend(s.store);
    const store: SandboxStore = {
      ...backend,
      deliveries: {
        ...backend.deliveries,
        allEndpoints: () => {
          looks++;
          return backend.deliveries.allEndpoints();
        },
      },
    };
    const { sent, send } = heldSender();
    dispatcher = startDispatcher(store, { send, tickMs: 60_000 });
    await nextTurn();
    expect(looks).toBe(1);
    // Three deliveries queued in one transaction: one wake, which sends all three.
    s.store.transaction(() => {
      for (const event of events) s.store.outbox.redeliver('dev', Number(event.id), s.store.clock.now('dev'));
    });
    await nextTurn();
    expect(sent).toHaveLength(3);
    expect(looks).toBe(2);
  });

  it('sends at once, as it starts, what was already due', async () => {
    fakeTimer();
    await addEndpoint();
    await cancelled();
    const { sent, send } = sender(() => OK);
    dispatcher = startDispatcher(sqliteBackend(s.store), { send, tickMs: 60_000 });
    await nextTurn();
    expect(sent).toHaveLength(1);
  });

  it('sends a later event of a resource as soon as the earlier one is recorded: the freed slot takes it', async () => {
    fakeTimer();
    const { sent, send, answer } = heldSender();
    dispatcher = startDispatcher(sqliteBackend(s.store), { send, tickMs: 60_000 });
    await addEndpoint();
    // `processing`, then `captured`, of one payment: the later waits for the earlier.
    await s.capturedOneTime();
    await nextTurn();
    expect(sent).toHaveLength(1);
    answer(0, OK);
    await until(() => sent.length === 2, 5000, 'the later event');
    expect(sent.map((r) => JSON.parse(r.body).data.status)).toEqual(['processing', 'captured']);
  });
});

describe('the timer', () => {
  /** A delivery that failed once, due again (after its 1 s backoff) once the channel's clock has moved a minute: only the timer looks for it. */
  async function retryDue(options: { tickMs?: number }) {
    fakeTimer();
    const { sent, send } = sender((n) => (n === 0 ? FAILED : OK));
    dispatcher = startDispatcher(sqliteBackend(s.store), { send, ...options });
    await addEndpoint();
    await cancelled();
    await until(() => attemptCount() === 1, 5000, 'the failed attempt recorded');
    await advance(60);
    expect(sent).toHaveLength(1);
    return sent;
  }

  it('looks for due deliveries every tickMs', async () => {
    const sent = await retryDue({ tickMs: 60_000 });
    await vi.advanceTimersByTimeAsync(59_999);
    await nextTurn();
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await nextTurn();
    expect(sent).toHaveLength(2);
  });

  it('looks every 250 ms by default', async () => {
    const sent = await retryDue({});
    await vi.advanceTimersByTimeAsync(249);
    await nextTurn();
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await nextTurn();
    expect(sent).toHaveLength(2);
  });

  it('does not keep the process alive', () => {
    const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
    const before = timers();
    dispatcher = startDispatcher(sqliteBackend(s.store), { send: sender(() => OK).send, tickMs: 60_000 });
    expect(timers()).toBe(before);
  });
});

describe('stopping', () => {
  it('waits for the attempt in flight to be recorded, then sends nothing more: the later event stays due for the next start', async () => {
    fakeTimer();
    const { sent, send, answer } = heldSender();
    dispatcher = startDispatcher(sqliteBackend(s.store), { send, tickMs: 60_000 });
    await addEndpoint();
    await s.capturedOneTime();
    await nextTurn();
    expect(sent).toHaveLength(1);
    let stopped = false;
    const stopping = dispatcher.stop().then(() => {
      stopped = true;
    });
    await nextTurn();
    expect(stopped).toBe(false);
    answer(0, OK);
    await stopping;
    expect(attemptCount()).toBe(1);
    // The slot the answer freed takes nothing; nor does a wake, nor a new event.
    expect(sent).toHaveLength(1);
    dispatcher.wake();
    await cancelled();
    await nextTurn();
    expect(sent).toHaveLength(1);
    expect(dueCount()).toBe(2);
  });

  it('a stop with a grace gives back, when the grace ends, the claims of the attempts still unanswered: another dispatcher sends them at once, and the late answer is not recorded', async () => {
    const held = heldSender();
    dispatcher = startDispatcher(sqliteBackend(s.store), { send: held.send, tickMs: 60_000 });
    await addEndpoint();
    await s.capturedOneTime();
    await until(() => held.sent.length === 1);
    await dispatcher.stop(20);
    dispatcher = undefined;
    // Given back: due now, not after the lease, though its attempt has not been answered.
    expect(s.store.deliveries.heldClaim(1)).toBeUndefined();
    expect(dueCount()).toBe(1);
    const next = sender(() => OK);
    dispatcher = startDispatcher(sqliteBackend(s.store), { send: next.send, tickMs: 60_000 });
    // The one given back goes first, then the later event of the same session, which waited for it.
    await until(() => attemptCount() === 2);
    // The same delivery, the same bytes (its webhook_delivery_id among them).
    expect(next.sent[0]!.body).toBe(held.sent[0]!.body);
    // The first attempt's answer arrives after its claim was given back: dropped.
    held.answer(0, FAILED);
    await nextTurn();
    await nextTurn();
    expect(attemptCount()).toBe(2);
    expect(s.db.prepare('SELECT status FROM delivery_attempts').pluck().all()).toEqual([204, 204]);
  });

  it('claims nothing once stopped, not even for the fill it had begun as it started: what was due stays due', async () => {
    fakeTimer();
    await addEndpoint();
    await cancelled();
    const { sent, send } = sender(() => OK);
    // Started, then stopped while its first wake still waits for the endpoints.
    dispatcher = startDispatcher(sqliteBackend(s.store), { send, tickMs: 60_000 });
    await dispatcher.stop();
    await nextTurn();
    expect(sent).toHaveLength(0);
    expect(dueCount()).toBe(1);
  });

  it('reads the database no more once stopped, so that the store can be closed after it: neither a wake nor the slot the last answer freed reads it', async () => {
    fakeTimer();
    const reads: string[] = [];
    const store = sqliteBackend(s.store);
    const counted = (name: 'allEndpoints' | 'endpoint') =>
      ((...args: unknown[]) => {
        reads.push(name);
        return (store.deliveries[name] as (...a: unknown[]) => Promise<unknown>)(...args);
      }) as never;
    const { sent, send, answer } = heldSender();
    dispatcher = startDispatcher(
      {
        ...store,
        deliveries: { ...store.deliveries, allEndpoints: counted('allEndpoints'), endpoint: counted('endpoint') },
      },
      { send, tickMs: 60_000 },
    );
    await addEndpoint();
    await s.capturedOneTime();
    await nextTurn();
    expect(sent).toHaveLength(1);
    reads.length = 0;
    const stopping = dispatcher.stop();
    // The answer frees a slot while the stop waits for it.
    answer(0, OK);
    await stopping;
    dispatcher.wake();
    await nextTurn();
    await nextTurn();
    expect(reads).toEqual([]);
    expect(sent).toHaveLength(1);
  });

  it('leaves no timer and no listener behind', async () => {
    fakeTimer();
    let listening = 0;
    const store: SandboxStore = {
      ...sqliteBackend(s.store),
      deliveryWakeUp: {
        queued: s.store.deliveryWakeUp.queued,
        add: (waker) => {
          const stop = s.store.deliveryWakeUp.add(waker);
          listening++;
          return () => {
            listening--;
            return stop();
          };
        },
      },
    };
    expect(vi.getTimerCount()).toBe(0);
    const started = startDispatcher(store, { send: sender(() => OK).send, tickMs: 60_000 });
    expect({ timers: vi.getTimerCount(), listening }).toEqual({ timers: 1, listening: 1 });
    await started.stop();
    expect({ timers: vi.getTimerCount(), listening }).toEqual({ timers: 0, listening: 0 });
  });
});

describe('failures of the database: reported, never fatal', () => {
  it('a failure to read the endpoints is reported, and the next wake sends what is due', async () => {
    fakeTimer();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    await addEndpoint();
    await cancelled();
    const { sent, send } = sender(() => OK);
    dispatcher = startDispatcher(storeFailingOnce('allEndpoints', 'database is locked'), {
      send,
      tickMs: 60_000,
    });
    await nextTurn();
    expect(errors.mock.calls).toEqual([['webhook dispatcher: database is locked']]);
    expect(sent).toHaveLength(0);
    dispatcher.wake();
    await nextTurn();
    expect(sent).toHaveLength(1);
  });

  it('a failure to record an attempt is reported; the delivery stays due, and the next wake sends it again', async () => {
    fakeTimer();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { sent, send } = sender(() => OK);
    dispatcher = startDispatcher(storeFailingOnce('deliveredByClaim', 'disk I/O error'), {
      send,
      tickMs: 60_000,
    });
    await addEndpoint();
    await cancelled();
    await until(() => errors.mock.calls.length > 0, 5000, 'the failure reported');
    expect(errors.mock.calls).toEqual([['webhook dispatcher: disk I/O error']]);
    expect(attemptCount()).toBe(0);
    dispatcher.wake();
    await nextTurn();
    expect(sent).toHaveLength(2);
    await until(() => attemptCount() === 1, 5000, 'the second attempt recorded');
    expect(s.db.prepare('SELECT status FROM deliveries').pluck().all()).toEqual(['delivered']);
  });

  it('an attempt whose record failed gives its slot back: the endpoint is sent as many deliveries at once as before', async () => {
    // performance.now() stands still: no attempt gives up its slot by waiting (domain/delivery-slots.ts).
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    // The first attempt is answered at once, and its record fails; every later one is held.
    const held: Array<() => void> = [];
    unanswered.push(() => {
      for (const answer of held) answer();
    });
    const { sent, send } = sender((n) =>
      n === 0 ? OK : new Promise<AttemptOutcome>((resolve) => held.push(() => resolve(OK))),
    );
    // Its release fails too: the delivery stays leased to this queue, which does not claim it again.
    dispatcher = startDispatcher(storeFailingOnce(['deliveredByClaim', 'release'], 'database is locked'), {
      send,
      tickMs: 60_000,
    });
    await addEndpoint();
    await cancelled();
    await until(() => errors.mock.calls.length > 0, 5000, 'the failed record reported');
    // Eight more events, each of another session: with the failed attempt's slot given back, the
    // endpoint's eight slots take all eight.
    for (let n = 0; n < 8; n++) await cancelled();
    await until(() => sent.length >= 9, 5000, 'eight attempts at once');
    await nextTurn();
    expect(sent).toHaveLength(9);
  });

  it('a failure to read the endpoint after an attempt is reported, and the dispatcher goes on', async () => {
    fakeTimer();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { sent, send } = sender(() => OK);
    dispatcher = startDispatcher(storeFailingOnce('endpoint', 'database is locked'), {
      send,
      tickMs: 60_000,
    });
    await addEndpoint();
    await cancelled();
    await until(() => errors.mock.calls.length > 0, 5000, 'the failure reported');
    expect(errors.mock.calls).toEqual([['webhook dispatcher: database is locked']]);
    expect(attemptCount()).toBe(1);
    await cancelled();
    await nextTurn();
    expect(sent).toHaveLength(2);
  });
});

describe('an attempt whose delivery ended while it was in flight', () => {
  it('is not recorded when the endpoint was removed meanwhile: the delivery stays failed, and its event is not marked delivered', async () => {
    fakeTimer();
    const { sent, send, answer } = heldSender();
    dispatcher = startDispatcher(sqliteBackend(s.store), { send, tickMs: 60_000 });
    const endpoint = await addEndpoint();
    await cancelled();
    await nextTurn();
    answer(0, FAILED);
    await until(() => attemptCount() === 1, 5000, 'the failed attempt recorded');
    // The retry, in flight while the endpoint is removed; then answered 204.
    await advance(60);
    dispatcher.wake();
    await nextTurn();
    expect(sent).toHaveLength(2);
    expect((await s.call('DELETE', `/sandbox/v1/webhook_endpoints/${endpoint.id}`)).status).toBe(200);
    answer(1, OK);
    // Stopping waits for the attempt to be recorded, or not.
    await dispatcher.stop();
    dispatcher = undefined;
    const log = (await s.get('/sandbox/v1/webhook_deliveries')).body.attempts as Array<{
      status: number;
      delivery_status: string;
    }>;
    expect(log.map((a) => [a.status, a.delivery_status])).toEqual([[500, 'failed']]);
    expect((await s.get('/sandbox/v1/outbox')).body.events[0].delivered_at).toBeNull();
  });
});
