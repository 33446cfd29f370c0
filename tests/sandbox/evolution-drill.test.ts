// The evolution drill (PUT /sandbox/v1/evolution_drill, `sandbox --drill`): a channel plays a later
// version of the service. Every answer here is also checked against the document by the test
// sandbox itself (testkit/sandbox.ts): the later version stays inside what the contract allows.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openEnumValues } from '../../src/contract/open-enum.ts';
import { enumsIn, schemaReach } from '../../build/lib/evolution.ts';
import { startDispatcher, type Dispatcher } from '../../src/sandbox/delivery/dispatcher.js';
import { laterValue } from '../../src/sandbox/domain/evolution-drill.js';
import { buildSandbox } from '../../src/sandbox/http/app.js';
import { createStore, openDatabase } from '../../src/sandbox/store/index.js';
import { contract } from '../../testkit/contract.js';
import { OTHER_KEY, testSandbox, type TestSandbox } from '../../testkit/sandbox.js';
import { startReceiver, until, type Receiver } from '../../testkit/webhook-receiver.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';

let s: TestSandbox;
beforeEach(() => {
  s = testSandbox();
});
afterEach(() => s.close());

const ADDED = { note: expect.stringContaining('later version') };
const drill = (body: Record<string, unknown>, key?: string) =>
  s.call('PUT', '/sandbox/v1/evolution_drill', { body, ...(key ? { key } : {}) });

/** Every object in a JSON value, with its path. */
function objectsIn(value: unknown, at = '$'): Array<[string, Record<string, unknown>]> {
  if (Array.isArray(value)) return value.flatMap((item, i) => objectsIn(item, `${at}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  const object = value as Record<string, unknown>;
  return [
    [at, object],
    ...Object.entries(object)
      .filter(([key]) => key !== 'added_later')
      .flatMap(([key, field]) => objectsIn(field, `${at}.${key}`)),
  ];
}
const withoutAddedProperty = (objects: Array<[string, Record<string, unknown>]>) =>
  objects.filter(([, object]) => !('added_later' in object)).map(([at]) => at);

/** A captured authorization of 5000 cents, 3000 captured and 1000 refunded: the partner matrix's flow. */
async function partnerFlow() {
  const id = await s.authorized({
    total_amount: 5000,
    amount_details: { total_additional_charges: 0, total_discounts: 0 },
    order_items: [
      {
        name: 'Monitor',
        sku: 'BPM-200',
        quantity: 1,
        price: 5000,
        amount_details: { total_additional_charges: 0, total_discounts: 0 },
      },
    ],
  });
  expect(
    (await s.post(`${s.session(id)}/capture`, { total_amount: 3000, idempotency_key: `${id}-capture` })).status,
  ).toBe(200);
  expect(
    (
      await s.post('/payments/v1/refund', {
        payment_id: id,
        amount: 1000,
        reason: 'customer_request',
        idempotency_key: `${id}-refund`,
      })
    ).status,
  ).toBe(200);
  return id;
}

/** Whether a JSON value holds anything the drill would add: its property, its values, its event type. */
const drillTraces = (value: unknown) => JSON.stringify(value).match(/added.?later/gi) ?? [];
const timelineOf = async (id: string) =>
  (await s.get(`/sandbox/v1/payment_sessions/${id}/timeline`)).body.entries as Array<{
    step: string;
    state: string | null;
  }>;
/** An authorization placed and then captured: create, pay (the customer's checkout), capture. */
async function createPayCapture() {
  const id = await s.authorized({
    total_amount: 5000,
    amount_details: { total_additional_charges: 0, total_discounts: 0 },
    order_items: [
      {
        name: 'Monitor',
        sku: 'BPM-200',
        quantity: 1,
        price: 5000,
        amount_details: { total_additional_charges: 0, total_discounts: 0 },
      },
    ],
  });
  expect(
    (await s.post(`${s.session(id)}/capture`, { total_amount: 5000, idempotency_key: `${id}-capture` })).status,
  ).toBe(200);
  return id;
}

describe('what the drill stores: nothing', () => {
  it('drill on, create, pay, capture, drill off: the timeline reads created, authorized, captured, and the stored events carry no added_later', async () => {
    await drill({ enabled: true });
    const id = await createPayCapture();
    await drill({ enabled: false });
    expect((await timelineOf(id)).map((entry) => entry.step)).toEqual(['created', 'authorized', 'captured']);
    const stored = await s.outbox();
    expect(stored.map((event) => [event.event_type, event.payload.data.status])).toEqual([
      ['payment_session_complete', 'authorized'],
      ['payment_session_complete', 'captured'],
    ]);
    expect(drillTraces(stored)).toEqual([]);
  });

  it('while the drill is on, the dashboard reads the real steps and events, as without it', async () => {
    const without = await createPayCapture();
    await drill({ enabled: true });
    const under = await createPayCapture();
    const [timeline, before] = [await timelineOf(under), await timelineOf(without)];
    expect(timeline.map(({ step, state }) => [step, state])).toEqual(before.map(({ step, state }) => [step, state]));
    expect(timeline.map(({ step, state }) => [step, state])).toEqual([
      ['created', null],
      ['authorized', 'authorized'],
      ['captured', 'captured'],
    ]);
    const events = (await s.get('/sandbox/v1/webhook_events')).body.events as Array<{
      payload: { data: { payment_id: string } };
    }>;
    expect(events.filter((event) => event.payload.data.payment_id === under)).toHaveLength(2);
    expect(drillTraces(events)).toEqual([]);
    expect(drillTraces(await s.outbox())).toEqual([]);
  });

  it("a session's answer is reshaped as it is sent, and read again after the drill, the real one", async () => {
    await drill({ enabled: true });
    const id = await createPayCapture();
    expect((await s.detail(id)).body).toMatchObject({ status: 'added_later', added_later: ADDED });
    await drill({ enabled: false });
    const { body } = await s.detail(id);
    expect(body).toMatchObject({ status: 'captured', service_fee: '0.00' });
    expect(drillTraces(body)).toEqual([]);
  });
});

describe('the drill helper', () => {
  it('is off by default, and turns on and off per channel, keeping what it does not name', async () => {
    expect((await s.get('/sandbox/v1/evolution_drill')).body).toEqual({ enabled: false, service_fee: 'number' });
    expect((await drill({ enabled: true })).body).toEqual({ enabled: true, service_fee: 'number' });
    expect((await drill({ service_fee: 'string' })).body).toEqual({ enabled: true, service_fee: 'string' });
    expect((await s.get('/sandbox/v1/evolution_drill', { key: OTHER_KEY })).body).toEqual({
      enabled: false,
      service_fee: 'number',
    });
    expect((await drill({ enabled: false })).body).toEqual({ enabled: false, service_fee: 'string' });
  });

  it.each([
    [{}, 'fewer than 1 properties'],
    [{ enabled: 'yes' }, 'enabled'],
    [{ service_fee: 'decimal' }, 'service_fee'],
    [{ enabled: true, later: true }, 'later'],
  ])('refuses %j with InvalidRequest, and changes nothing', async (body, named) => {
    const reply = await drill(body);
    expect({ status: reply.status, error: reply.body.error }).toEqual({ status: 400, error: 'InvalidRequest' });
    expect(reply.body.message).toContain(named);
    expect((await s.get('/sandbox/v1/evolution_drill')).body.enabled).toBe(false);
  });

  it('goes back to the start setting when the channel is reset', async () => {
    await drill({ enabled: true });
    await s.post('/sandbox/v1/reset', {});
    expect((await s.get('/sandbox/v1/evolution_drill')).body.enabled).toBe(false);
  });

  it('is on for every channel that has not said otherwise when the sandbox starts with --drill', async () => {
    const db = openDatabase(':memory:');
    const app = buildSandbox({
      store: sqliteBackend(createStore(db, { drill: { enabled: true, service_fee: 'number' } })),
    });
    try {
      const get = (key: string) =>
        app.inject({ url: '/sandbox/v1/evolution_drill', headers: { 'x-service-api-key': key } }).then((r) => r.json());
      expect(await get('sandbox-dev-key')).toEqual({ enabled: true, service_fee: 'number' });
      await app.inject({
        method: 'PUT',
        url: '/sandbox/v1/evolution_drill',
        headers: { 'x-service-api-key': OTHER_KEY },
        payload: { enabled: false },
      });
      expect(await get(OTHER_KEY)).toEqual({ enabled: false, service_fee: 'number' });
      expect(await get('sandbox-dev-key')).toEqual({ enabled: true, service_fee: 'number' });
    } finally {
      await app.close();
      db.close();
    }
  });
});

describe('under the drill', () => {
  it('a session answers with added_later at every object level, values the contract does not list, and service_fee a number', async () => {
    const id = await partnerFlow();
    await drill({ enabled: true });
    const { body } = await s.detail(id);
    expect(body).toMatchObject({
      id,
      status: 'added_later',
      status_summary: 'Added Later',
      kind: 'added_later',
      service_fee: 0,
      capture_amount: 3000,
      added_later: ADDED,
    });
    expect(withoutAddedProperty(objectsIn(body))).toEqual([]);
    expect(body.order_items[0]).toMatchObject({ sku: 'BPM-200', added_later: ADDED });
  });

  it('changes only the answer: the session is still captured, and a filter still takes the documented values', async () => {
    const id = await partnerFlow();
    await drill({ enabled: true });
    const listed = await s.get(
      '/payments/v1/payment_sessions?status=captured&kind=authorization&summarize_refunds=true&include_service_fee=true',
    );
    expect(listed.body.payment_sessions.map((item: { id: string }) => item.id)).toEqual([id]);
    expect(listed.body.payment_sessions[0]).toMatchObject({
      status: 'added_later',
      refund_amount: 1000,
      service_fee: 0,
    });
    expect(withoutAddedProperty(objectsIn(listed.body))).toEqual([]);
    await drill({ enabled: false });
    expect((await s.detail(id)).body).toMatchObject({
      status: 'captured',
      status_summary: 'Partially Refunded',
      service_fee: '0.00',
    });
    expect((await s.detail(id)).body).not.toHaveProperty('added_later');
  });

  it('writes service_fee as a string when the channel says so', async () => {
    const id = await partnerFlow();
    await drill({ enabled: true, service_fee: 'string' });
    expect((await s.detail(id)).body.service_fee).toBe('0.00');
  });

  it('a refusal keeps its code, and gains the added property', async () => {
    const id = await partnerFlow();
    await drill({ enabled: true });
    const again = await s.post(`${s.session(id)}/capture`, { total_amount: 1000, idempotency_key: `${id}-capture-2` });
    expect(again.body).toEqual({ error: 'SessionCaptured', message: expect.any(String), added_later: ADDED });
    const missing = await s.get('/payments/v1/payment_session/nope');
    expect(missing.body).toMatchObject({ error: 'NotFound', added_later: ADDED });
  });

  it('answers a code the contract does not list through the faults helper, once, and only under the drill', async () => {
    const id = await partnerFlow();
    const fault = { operation_id: 'voidPaymentSession', status: 400, error: 'AddedLater' };
    const refused = await s.post('/sandbox/v1/faults', fault);
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 400, error: 'InvalidRequest' });
    expect(refused.body.message).toContain('only under the evolution drill');
    await drill({ enabled: true });
    expect((await s.post('/sandbox/v1/faults', fault)).body).toEqual({
      operation_id: 'voidPaymentSession',
      status: 400,
      error: 'AddedLater',
      remaining: 1,
    });
    const voided = await s.post(`${s.session(id)}/void`, { idempotency_key: `${id}-void` });
    expect({ status: voided.status, body: voided.body }).toEqual({
      status: 400,
      body: { error: 'AddedLater', message: expect.any(String), added_later: ADDED },
    });
    expect((await s.post(`${s.session(id)}/void`, { idempotency_key: `${id}-void` })).body.error).toBe(
      'SessionCaptured',
    );
  });

  it.each(['addedLater', 'Added Later', 'A'.repeat(65), '1Code'])(
    'still refuses a fault code a later version could not send: %j',
    async (error) => {
      await drill({ enabled: true });
      const reply = await s.post('/sandbox/v1/faults', { operation_id: 'voidPaymentSession', status: 400, error });
      expect({ status: reply.status, error: reply.body.error }).toEqual({ status: 400, error: 'InvalidRequest' });
    },
  );

  it('leaves the other channel as today', async () => {
    await drill({ enabled: true });
    const id = await s.createSession({}, { key: OTHER_KEY });
    const { body } = await s.get(s.session(id), { key: OTHER_KEY });
    expect(body).toMatchObject({ status: 'pending', status_summary: 'Incomplete' });
    expect(body).not.toHaveProperty('added_later');
  });

  it("leaves the helpers' own answers as they are", async () => {
    await drill({ enabled: true });
    expect((await s.get('/sandbox/v1/features')).body).toEqual({ authorization: true, tokenization: true });
  });
});

describe("the values the drill puts in the contract's open enums", () => {
  it("are none of each enum's documented values", () => {
    const found = enumsIn(contract as never, schemaReach(contract as never).answers).filter((e) => e.kind === 'open');
    expect(found.length).toBeGreaterThan(25);
    for (const { at, values } of found) expect(values, at).not.toContain(laterValue(values as string[]));
    expect(laterValue(openEnumValues(contract.components.schemas!.PaymentSessionStatusSummary)!)).toBe('Added Later');
  });
});

describe('deliveries under the drill', () => {
  let dispatcher: Dispatcher;
  const receivers: Receiver[] = [];
  beforeEach(() => {
    dispatcher = startDispatcher(sqliteBackend(s.store), { tickMs: 20, timeoutMs: 5000 });
  });
  afterEach(async () => {
    for (const receiver of receivers.splice(0)) await receiver.close();
    await dispatcher.stop();
  });
  const SECRET = 'whsec_drill_secret';
  /** The log of deliveries once it holds `count` attempts: a receiver has the request before the sandbox records its answer. */
  async function loggedAttempts(count: number): Promise<Array<Record<string, any>>> {
    const log = async () => (await s.get('/sandbox/v1/webhook_deliveries')).body.attempts as Array<Record<string, any>>;
    await until(async () => (await log()).length >= count, 10_000, `${count} attempts in the log`);
    return log();
  }
  async function endpoint(
    extra: Record<string, unknown> = {},
    options: Parameters<typeof startReceiver>[0] = { secret: SECRET },
  ) {
    const receiver = await startReceiver(options);
    receivers.push(receiver);
    expect(
      (await s.post('/sandbox/v1/webhook_endpoints', { url: receiver.url, secret: SECRET, ...extra })).status,
    ).toBe(200);
    return receiver;
  }

  it('signs each event as sent, reshaped, and follows it with an event of an unknown type, to every endpoint', async () => {
    const all = await endpoint();
    const disputesOnly = await endpoint({ event_types: ['dispute.*'] });
    await drill({ enabled: true });
    const id = await s.authorized();
    await until(() => all.accepted.length >= 2 && disputesOnly.accepted.length >= 1, 10_000, 'the deliveries');
    // The receiver verified each signature over the body as it arrived (webhook-receiver.ts).
    expect(all.rejected).toEqual([]);
    const [complete, unknown] = all.accepted.map((r) => r.body);
    expect(complete).toMatchObject({
      event_type: 'payment_session_complete',
      added_later: ADDED,
      data: { payment_id: id, status: 'added_later', added_later: ADDED },
    });
    expect(complete!.data.order_items[0]).toMatchObject({ added_later: ADDED });
    expect(unknown).toMatchObject({
      event_type: 'added_later',
      webhook_delivery_id: expect.stringMatching(/^dlv_/),
      data: { object: 'added_later', after_event_type: 'payment_session_complete', object_id: id },
    });
    expect(disputesOnly.accepted.map((r) => r.body.event_type)).toEqual(['added_later']);
  });

  it("gives a legacy endpoint the unknown event's data, flat", async () => {
    const legacy = await endpoint({ mode: 'legacy' }, { legacyKey: SECRET });
    await drill({ enabled: true });
    const id = await s.authorized();
    await until(() => legacy.accepted.length >= 2, 10_000, 'the legacy deliveries');
    expect(legacy.accepted.map((r) => r.body)).toEqual([
      expect.objectContaining({ payment_id: id, status: 'added_later', added_later: ADDED }),
      expect.objectContaining({ object: 'added_later', object_id: id, added_later: ADDED }),
    ]);
  });

  it('sends what the drill says when each attempt goes: an event stored under it and retried after it is off goes as stored, and the unknown event after it is not sent again', async () => {
    const receiver = await endpoint({}, { secret: SECRET, answer: (n) => (n < 2 ? 'fail' : 'ok') });
    await drill({ enabled: true });
    const id = await s.authorized();
    // Recorded, not only received: the drill is turned off after the attempts are in the log.
    await loggedAttempts(2);
    const first = receiver.arrived.map((raw) => JSON.parse(raw) as Record<string, any>);
    const shaped = first.find((body) => body.event_type === 'payment_session_complete')!;
    expect(shaped).toMatchObject({ data: { payment_id: id, status: 'added_later' }, added_later: ADDED });
    expect(first.map((body) => body.event_type).sort()).toEqual(['added_later', 'payment_session_complete']);
    await drill({ enabled: false });
    await s.post('/sandbox/v1/clock/advance', { seconds: 3600 });
    const log = await loggedAttempts(3);
    const [retried] = receiver.accepted.map((r) => r.body);
    expect(retried).toEqual({
      webhook_delivery_id: shaped.webhook_delivery_id,
      event_type: 'payment_session_complete',
      data: expect.objectContaining({ payment_id: id, status: 'authorized' }),
    });
    expect(drillTraces(retried)).toEqual([]);
    // The unknown event's delivery, tried once under the drill, ended when it was turned off.
    const rows = log.map((a) => [a.event_type, a.status, a.delivery_status]);
    // The first two went at once (they are about different resources), in either order.
    expect(rows.slice(0, 2).sort()).toEqual([
      ['added_later', 500, 'failed'],
      ['payment_session_complete', 500, 'delivered'],
    ]);
    expect(rows.slice(2)).toEqual([['payment_session_complete', 204, 'delivered']]);
  });

  it('shapes an event queued before the drill and sent under it, and sends no unknown event after it', async () => {
    const receiver = await endpoint({}, { secret: SECRET, answer: (n) => (n < 1 ? 'fail' : 'ok') });
    const id = await s.authorized();
    await until(() => receiver.arrived.length >= 1, 10_000, 'the first attempt');
    expect(drillTraces(JSON.parse(receiver.arrived[0]!))).toEqual([]);
    await drill({ enabled: true });
    await s.post('/sandbox/v1/clock/advance', { seconds: 3600 });
    const log = await loggedAttempts(2);
    expect(receiver.accepted[0]!.body).toMatchObject({
      event_type: 'payment_session_complete',
      data: { payment_id: id, status: 'added_later' },
      added_later: ADDED,
    });
    expect(log.map((a) => a.event_type)).toEqual(['payment_session_complete', 'payment_session_complete']);
  });

  it("logs the unknown event's attempts under the event it follows, with its own type and delivery id, and leaves the event undelivered when only it was", async () => {
    const disputesOnly = await endpoint({ event_types: ['dispute.*'] });
    await drill({ enabled: true });
    const id = await s.authorized();
    const log = await loggedAttempts(1);
    const unknown = disputesOnly.accepted[0]!.body;
    expect(unknown).toEqual({
      webhook_delivery_id: expect.stringMatching(/^dlv_[0-9a-f]{32}$/),
      event_type: 'added_later',
      data: {
        id: expect.any(String),
        object: 'added_later',
        after_event_type: 'payment_session_complete',
        object_id: id,
        added_later: ADDED,
      },
    });
    // Its id is the UUID its delivery id was made of: the same on every retry.
    expect(unknown.data.id.replace(/-/g, '')).toBe(unknown.webhook_delivery_id.slice(4));
    expect(unknown.data.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const [event] = await s.outbox();
    expect(event!.payload.webhook_delivery_id).not.toBe(unknown.webhook_delivery_id);
    expect(log).toEqual([
      expect.objectContaining({
        event_id: event!.id,
        event_type: 'added_later',
        webhook_delivery_id: unknown.webhook_delivery_id,
        status: 204,
        delivery_status: 'delivered',
      }),
    ]);
    const listed = (await s.get('/sandbox/v1/webhook_events')).body.events;
    expect(listed).toEqual([
      expect.objectContaining({
        id: event!.id,
        event_type: 'payment_session_complete',
        delivered_at: null,
        attempts: log,
      }),
    ]);
  });

  it('turned off before its deliveries went, leaves only the events as stored to send', async () => {
    await dispatcher.stop();
    const receiver = await endpoint();
    await drill({ enabled: true });
    const id = await s.authorized();
    const pending = () =>
      s.db
        .prepare(
          "SELECT event_type, drill_follow_up IS NOT NULL AS follows FROM deliveries JOIN outbox o ON o.id = outbox_id WHERE status = 'pending' ORDER BY deliveries.id",
        )
        .all();
    expect(pending()).toEqual([
      { event_type: 'payment_session_complete', follows: 0 },
      { event_type: 'payment_session_complete', follows: 1 },
    ]);
    await drill({ enabled: false });
    expect(pending()).toEqual([{ event_type: 'payment_session_complete', follows: 0 }]);
    dispatcher = startDispatcher(sqliteBackend(s.store), { tickMs: 20, timeoutMs: 5000 });
    await until(() => receiver.accepted.length >= 1, 10_000, 'the delivery');
    expect(receiver.accepted.map((r) => r.body)).toEqual([
      {
        webhook_delivery_id: expect.any(String),
        event_type: 'payment_session_complete',
        data: expect.objectContaining({ payment_id: id, status: 'authorized' }),
      },
    ]);
  });

  it('hands a listener the deliveries as sent: the event reshaped, then the unknown event', async () => {
    const listener = (await s.post('/sandbox/v1/webhook_listeners', { forward_url: 'http://localhost:3000/webhooks' }))
      .body;
    await drill({ enabled: true });
    const id = await s.authorized();
    const { deliveries } = (await s.get(`/sandbox/v1/webhook_listeners/${listener.id}/deliveries`)).body;
    expect(
      deliveries.map((d: { event_type: string; object_id: string | null }) => [d.event_type, d.object_id]),
    ).toEqual([
      ['payment_session_complete', id],
      ['added_later', null],
    ]);
    const bodies = deliveries.map((d: { request_body: string }) => JSON.parse(d.request_body));
    expect(bodies[0]).toMatchObject({ data: { status: 'added_later' }, added_later: ADDED });
    expect(bodies[1]).toMatchObject({ event_type: 'added_later', data: { object_id: id } });
    expect(deliveries[1].webhook_delivery_id).toBe(bodies[1].webhook_delivery_id);
  });

  it("refuses a listener's report of an unknown event's delivery that turning the drill off ended, saying so", async () => {
    const listener = (await s.post('/sandbox/v1/webhook_listeners', { forward_url: 'http://localhost:3000/webhooks' }))
      .body;
    await drill({ enabled: true });
    await s.authorized();
    const { deliveries } = (await s.get(`/sandbox/v1/webhook_listeners/${listener.id}/deliveries`)).body;
    const unknown = deliveries.find((d: { event_type: string }) => d.event_type === 'added_later');
    await drill({ enabled: false });
    const { delivery_id, claim_id } = unknown;
    const report = { delivery_id, claim_id, status: 204, latency_ms: 3, error: null };
    const late = await s.post(`/sandbox/v1/webhook_listeners/${listener.id}/attempts`, report);
    expect([late.status, late.body]).toEqual([
      400,
      {
        error: 'InvalidState',
        message:
          `Listener ${listener.id} holds no delivery "${delivery_id}" under claim "${claim_id}": ` +
          'that claim was never made, its attempt was reported already, its 30 s lease ran out and the delivery ' +
          'is due again (or claimed again, under another claim id), or its delivery was ended since ' +
          '(turning the drill off ends its added_later deliveries).',
      },
    ]);
  });

  it('queues nothing more when the drill is off', async () => {
    const all = await endpoint();
    await s.authorized();
    await until(() => all.accepted.length >= 1, 10_000, 'the delivery');
    expect((await s.outbox()).map((event) => event.event_type)).toEqual(['payment_session_complete']);
    expect(all.accepted[0]!.body).not.toHaveProperty('added_later');
  });
});
