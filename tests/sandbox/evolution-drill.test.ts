// The evolution drill (PUT /sandbox/v1/evolution_drill, `sandbox --drill`): a channel plays a later
// version of the service. Every answer here is also checked against the document by the test
// sandbox itself (tests/support/sandbox.ts): the later version stays inside what the contract allows.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openEnumValues } from '../../scripts/lib/open-enum.mjs';
import { enumsIn, schemaReach } from '../../scripts/lib/evolution.mjs';
import { startDispatcher, type Dispatcher } from '../../src/sandbox/delivery/dispatcher.js';
import { laterValue } from '../../src/sandbox/domain/evolution-drill.js';
import { buildSandbox } from '../../src/sandbox/http/app.js';
import { createStore, openDatabase } from '../../src/sandbox/store/index.js';
import { contract } from '../support/contract.js';
import { OTHER_KEY, testSandbox, type TestSandbox } from '../support/sandbox.js';
import { startReceiver, until, type Receiver } from '../support/webhook-receiver.js';

let s: TestSandbox;
beforeEach(() => { s = testSandbox(); });
afterEach(() => s.close());

const ADDED = { note: expect.stringContaining('later version') };
const drill = (body: Record<string, unknown>, key?: string) => s.call('PUT', '/sandbox/v1/evolution_drill', { body, ...(key ? { key } : {}) });

/** Every object in a JSON value, with its path. */
function objectsIn(value: unknown, at = '$'): Array<[string, Record<string, unknown>]> {
  if (Array.isArray(value)) return value.flatMap((item, i) => objectsIn(item, `${at}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  const object = value as Record<string, unknown>;
  return [[at, object], ...Object.entries(object).filter(([key]) => key !== 'added_later').flatMap(([key, field]) => objectsIn(field, `${at}.${key}`))];
}
const withoutAddedProperty = (objects: Array<[string, Record<string, unknown>]>) => objects.filter(([, object]) => !('added_later' in object)).map(([at]) => at);

/** A captured authorization of 5000 cents, 3000 captured and 1000 refunded: the partner matrix's flow. */
async function partnerFlow() {
  const id = await s.authorized({ total_amount: 5000, amount_details: { total_additional_charges: 0, total_discounts: 0 }, order_items: [{ name: 'Monitor', sku: 'BPM-200', quantity: 1, price: 5000, amount_details: { total_additional_charges: 0, total_discounts: 0 } }] });
  expect((await s.post(`${s.session(id)}/capture`, { total_amount: 3000, idempotency_key: `${id}-capture` })).status).toBe(200);
  expect((await s.post('/payments/v1/refund', { payment_id: id, amount: 1000, reason: 'customer_request', idempotency_key: `${id}-refund` })).status).toBe(200);
  return id;
}

describe('the drill helper', () => {
  it('is off by default, and turns on and off per channel, keeping what it does not name', async () => {
    expect((await s.get('/sandbox/v1/evolution_drill')).body).toEqual({ enabled: false, service_fee: 'number' });
    expect((await drill({ enabled: true })).body).toEqual({ enabled: true, service_fee: 'number' });
    expect((await drill({ service_fee: 'string' })).body).toEqual({ enabled: true, service_fee: 'string' });
    expect((await s.get('/sandbox/v1/evolution_drill', { key: OTHER_KEY })).body).toEqual({ enabled: false, service_fee: 'number' });
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
    const app = buildSandbox({ store: createStore(db, { drill: { enabled: true, service_fee: 'number' } }) });
    try {
      const get = (key: string) => app.inject({ url: '/sandbox/v1/evolution_drill', headers: { 'x-service-api-key': key } }).then((r) => r.json());
      expect(await get('sandbox-dev-key')).toEqual({ enabled: true, service_fee: 'number' });
      await app.inject({ method: 'PUT', url: '/sandbox/v1/evolution_drill', headers: { 'x-service-api-key': OTHER_KEY }, payload: { enabled: false } });
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
    expect(body).toMatchObject({ id, status: 'added_later', status_summary: 'Added Later', kind: 'added_later', service_fee: 0, capture_amount: 3000, added_later: ADDED });
    expect(withoutAddedProperty(objectsIn(body))).toEqual([]);
    expect(body.order_items[0]).toMatchObject({ sku: 'BPM-200', added_later: ADDED });
  });

  it('changes only the answer: the session is still captured, and a filter still takes the documented values', async () => {
    const id = await partnerFlow();
    await drill({ enabled: true });
    const listed = await s.get('/payments/v1/payment_sessions?status=captured&kind=authorization&summarize_refunds=true&include_service_fee=true');
    expect(listed.body.payment_sessions.map((item: { id: string }) => item.id)).toEqual([id]);
    expect(listed.body.payment_sessions[0]).toMatchObject({ status: 'added_later', refund_amount: 1000, service_fee: 0 });
    expect(withoutAddedProperty(objectsIn(listed.body))).toEqual([]);
    await drill({ enabled: false });
    expect((await s.detail(id)).body).toMatchObject({ status: 'captured', status_summary: 'Partially Refunded', service_fee: '0.00' });
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
    expect((await s.post('/sandbox/v1/faults', fault)).body).toEqual({ operation_id: 'voidPaymentSession', status: 400, error: 'AddedLater', remaining: 1 });
    const voided = await s.post(`${s.session(id)}/void`, { idempotency_key: `${id}-void` });
    expect({ status: voided.status, body: voided.body }).toEqual({ status: 400, body: { error: 'AddedLater', message: expect.any(String), added_later: ADDED } });
    expect((await s.post(`${s.session(id)}/void`, { idempotency_key: `${id}-void` })).body.error).toBe('SessionCaptured');
  });

  it.each(['addedLater', 'Added Later', 'A'.repeat(65), '1Code'])('still refuses a fault code a later version could not send: %j', async (error) => {
    await drill({ enabled: true });
    const reply = await s.post('/sandbox/v1/faults', { operation_id: 'voidPaymentSession', status: 400, error });
    expect({ status: reply.status, error: reply.body.error }).toEqual({ status: 400, error: 'InvalidRequest' });
  });

  it('leaves the other channel as today', async () => {
    await drill({ enabled: true });
    const id = await s.createSession({}, { key: OTHER_KEY });
    const { body } = await s.get(s.session(id), { key: OTHER_KEY });
    expect(body).toMatchObject({ status: 'pending', status_summary: 'Incomplete' });
    expect(body).not.toHaveProperty('added_later');
  });

  it('leaves the helpers\' own answers as they are', async () => {
    await drill({ enabled: true });
    expect((await s.get('/sandbox/v1/features')).body).toEqual({ authorization: true, tokenization: true });
  });
});

describe('the values the drill puts in the contract\'s open enums', () => {
  it('are none of each enum\'s documented values', () => {
    const found = enumsIn(contract as never, schemaReach(contract as never).answers).filter((e) => e.kind === 'open');
    expect(found.length).toBeGreaterThan(25);
    for (const { at, values } of found) expect(values, at).not.toContain(laterValue(values as string[]));
    expect(laterValue(openEnumValues(contract.components.schemas!.PaymentSessionStatusSummary)!)).toBe('Added Later');
  });
});

describe('deliveries under the drill', () => {
  let dispatcher: Dispatcher;
  const receivers: Receiver[] = [];
  beforeEach(() => { dispatcher = startDispatcher(s.store, { tickMs: 20, timeoutMs: 5000 }); });
  afterEach(async () => {
    for (const receiver of receivers.splice(0)) await receiver.close();
    await dispatcher.stop();
  });
  const SECRET = 'whsec_drill_secret';
  async function endpoint(extra: Record<string, unknown> = {}, options: Parameters<typeof startReceiver>[0] = { secret: SECRET }) {
    const receiver = await startReceiver(options);
    receivers.push(receiver);
    expect((await s.post('/sandbox/v1/webhook_endpoints', { url: receiver.url, secret: SECRET, ...extra })).status).toBe(200);
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
    expect(complete).toMatchObject({ event_type: 'payment_session_complete', added_later: ADDED, data: { payment_id: id, status: 'added_later', added_later: ADDED } });
    expect(complete!.data.order_items[0]).toMatchObject({ added_later: ADDED });
    expect(unknown).toMatchObject({ event_type: 'added_later', webhook_delivery_id: expect.stringMatching(/^dlv_/), data: { object: 'added_later', after_event_type: 'payment_session_complete', object_id: id } });
    expect(disputesOnly.accepted.map((r) => r.body.event_type)).toEqual(['added_later']);
  });

  it('gives a legacy endpoint the unknown event\'s data, flat', async () => {
    const legacy = await endpoint({ mode: 'legacy' }, { legacyKey: SECRET });
    await drill({ enabled: true });
    const id = await s.authorized();
    await until(() => legacy.accepted.length >= 2, 10_000, 'the legacy deliveries');
    expect(legacy.accepted.map((r) => r.body)).toEqual([
      expect.objectContaining({ payment_id: id, status: 'added_later', added_later: ADDED }),
      expect.objectContaining({ object: 'added_later', object_id: id, added_later: ADDED }),
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
