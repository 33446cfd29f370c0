// Three sandbox processes on one PostgreSQL database act as one sandbox: any request may go to any
// of them. Idempotency is exact across them, a write acknowledged by one is read at once through
// the others, and the helpers and the hosted pages behave the same through any of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxGroup, startSandboxProcesses } from '../../testkit/sandbox-processes.js';
import { sessionRequest } from '../../testkit/sandbox.js';
import { testDatabase } from '../support/postgres-database.js';
import { authorized, CREATE, call, createSession, sessionPath } from './sandboxes-support.js';

let group: SandboxGroup;
beforeAll(async () => {
  // Behind one address, as a deployment behind a load balancer: each answer's redirect_url names it,
  // whichever sandbox made the answer.
  group = await startSandboxProcesses(3, await testDatabase('as_one'), {
    timeoutMs: 60_000,
    args: ['--public-url', 'http://127.0.0.1:4010'],
  });
});
afterAll(async () => {
  await group?.stop();
});

const capturePath = (id: string) => `${sessionPath(id)}/capture`;

describe('idempotency across sandboxes', () => {
  it('50 identical creates (one Idempotency-Key) spread over three sandboxes make one session, every answer the same', async () => {
    const body = sessionRequest({ idempotency_key: 'spread-create-1' });
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => call(group.at(i), 'POST', CREATE, { body })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    const ids = new Set(answers.map((a) => a.body.id));
    expect(ids.size).toBe(1);
    for (const answer of answers) expect(answer.body).toEqual(answers[0]!.body);
    const list = await call(group.at(1), 'GET', '/payments/v1/payment_sessions?limit=100');
    expect(list.body.payment_sessions.filter((s: { id: string }) => ids.has(s.id))).toHaveLength(1);
  });

  it('30 identical captures spread over three sandboxes make one capture, every answer the same', async () => {
    const id = await authorized(group.at(0));
    const body = { total_amount: 5000, idempotency_key: 'spread-capture-1' };
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => call(group.at(i), 'POST', capturePath(id), { body })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(200));
    for (const answer of answers) expect(answer.body).toEqual(answers[0]!.body);
    const detail = await call(group.at(2), 'GET', sessionPath(id));
    expect(detail.body).toMatchObject({ status: 'captured', capture_amount: 5000 });
    // Another key is a second capture, which the session refuses: the first was the only one.
    const second = await call(group.at(1), 'POST', capturePath(id), {
      body: { total_amount: 100, idempotency_key: 'spread-capture-2' },
    });
    expect(second.status).toBe(400);
    expect(second.body.error).toBe('SessionCaptured');
  });
});

describe('read your writes through any sandbox', () => {
  it('a session created through one is retrieved and listed at once through the others', async () => {
    for (let i = 0; i < 15; i++) {
      const id = await createSession(group.at(i), { customer_email: `ryw-${i}@example.com` });
      const detail = await call(group.at(i + 1), 'GET', sessionPath(id));
      expect(detail.status).toBe(200);
      expect(detail.body.id).toBe(id);
      const list = await call(group.at(i + 2), 'GET', `/payments/v1/payment_sessions?search=ryw-${i}@example.com`);
      expect(list.body.payment_sessions.map((s: { id: string }) => s.id)).toEqual([id]);
    }
  });

  it('a change of state through one is read at once through the others', async () => {
    for (let i = 0; i < 6; i++) {
      const id = await authorized(group.at(i));
      expect((await call(group.at(i + 1), 'GET', sessionPath(id))).body.status).toBe('authorized');
      await call(group.at(i + 1), 'POST', capturePath(id), {
        body: { total_amount: 100, idempotency_key: `ryw-${i}` },
      });
      expect((await call(group.at(i + 2), 'GET', sessionPath(id))).body.status).toBe('captured');
      const list = await call(group.at(i), 'GET', `/payments/v1/payment_sessions?status=captured&limit=100`);
      expect(list.body.payment_sessions.map((s: { id: string }) => s.id)).toContain(id);
    }
  });
});

describe('the helpers through any sandbox', () => {
  it('the clock advanced through one is the clock of the others: a hold expires for a capture through another', async () => {
    const [a, b, c] = group.sandboxes;
    const id = await authorized(a!);
    const before = (await call(b!, 'GET', '/sandbox/v1/clock')).body.offset_seconds as number;
    expect((await call(a!, 'POST', '/sandbox/v1/clock/advance', { body: { seconds: 600480 } })).status).toBe(200);
    expect((await call(b!, 'GET', '/sandbox/v1/clock')).body.offset_seconds).toBe(before + 600480);
    const capture = await call(c!, 'POST', capturePath(id), { body: { total_amount: 100, idempotency_key: 'late' } });
    expect(capture.status).toBe(400);
    expect(capture.body.error).toBe('SessionExpired');
  });

  it('faults armed through one are spent through the others, once each', async () => {
    const [a, b, c] = group.sandboxes;
    const armed = await call(a!, 'POST', '/sandbox/v1/faults', {
      body: { operation_id: 'capturePaymentSession', status: 500, count: 2 },
    });
    expect(armed.status).toBe(200);
    const first = await authorized(a!);
    const second = await authorized(a!);
    const third = await authorized(a!);
    const spent = [
      await call(b!, 'POST', capturePath(first), { body: { total_amount: 100, idempotency_key: 'f1' } }),
      await call(c!, 'POST', capturePath(second), { body: { total_amount: 100, idempotency_key: 'f2' } }),
    ];
    expect(spent.map((r) => [r.status, r.body.error])).toEqual([
      [500, 'ServerError'],
      [500, 'ServerError'],
    ]);
    expect(
      (await call(b!, 'POST', capturePath(third), { body: { total_amount: 100, idempotency_key: 'f3' } })).status,
    ).toBe(200);
  });

  it('features and the evolution drill set through one hold through the others', async () => {
    const [a, b, c] = group.sandboxes;
    expect((await call(a!, 'PUT', '/sandbox/v1/features', { body: { authorization: false } })).status).toBe(200);
    expect((await call(b!, 'GET', '/sandbox/v1/features')).body.authorization).toBe(false);
    const refused = await call(c!, 'POST', CREATE, { body: sessionRequest({ kind: 'authorization' }) });
    expect(refused.status).toBe(400);
    expect((await call(c!, 'PUT', '/sandbox/v1/features', { body: { authorization: true } })).status).toBe(200);
    expect((await call(a!, 'GET', '/sandbox/v1/features')).body.authorization).toBe(true);

    const on = { enabled: true, service_fee: 'number' };
    expect((await call(b!, 'PUT', '/sandbox/v1/evolution_drill', { body: on })).status).toBe(200);
    expect((await call(c!, 'GET', '/sandbox/v1/evolution_drill')).body).toEqual(on);
    expect((await call(a!, 'GET', '/sandbox/v1/evolution_drill')).body).toEqual(on);
    const off = { enabled: false, service_fee: 'number' };
    expect((await call(a!, 'PUT', '/sandbox/v1/evolution_drill', { body: off })).status).toBe(200);
    expect((await call(b!, 'GET', '/sandbox/v1/evolution_drill')).body).toEqual(off);
  });

  it('the hosted checkout of a session created through one is served and submitted through another', async () => {
    const [a, b, c] = group.sandboxes;
    const id = await createSession(a!);
    const page = await fetch(`${b!.baseUrl}/checkout/${id}`);
    expect(page.status).toBe(200);
    const token = /name="form_token" value="([^"]+)"/.exec(await page.text())?.[1];
    expect(token).toBeDefined();
    const form = new URLSearchParams({
      state: 'CA',
      eligibility: 'eligible',
      card_number: '4242424242424242',
      card_expiry: '12/34',
      card_cvc: '123',
      confirm: '1',
      form_token: token!,
    });
    const submitted = await fetch(`${c!.baseUrl}/checkout/${id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      redirect: 'manual',
    });
    expect(submitted.status).toBe(303);
    expect(submitted.headers.get('location')).toBe(`https://shop.example/orders/${id}/thanks`);
    // Paid: processing, or already captured by the review.
    expect(['processing', 'captured']).toContain((await call(a!, 'GET', sessionPath(id))).body.status);
  });

  it('a reset through one empties the channel for the others', async () => {
    const [a, b, c] = group.sandboxes;
    const id = await createSession(b!);
    const reset = await call(a!, 'POST', '/sandbox/v1/reset');
    expect(reset.status).toBe(200);
    expect(reset.body.payment_sessions).toBeGreaterThan(0);
    expect((await call(b!, 'GET', sessionPath(id))).status).toBe(404);
    expect((await call(c!, 'GET', '/payments/v1/payment_sessions')).body.payment_sessions).toEqual([]);
  });
});
