// Disputes in the sandbox: the canonical record, the /v1/disputes listing by cursor, accept, and
// every rule of the reference's dispute table, counted in the outbox; refunds follow the disputes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OTHER_KEY, testSandbox, type TestSandbox } from '../../testkit/sandbox.js';

let s: TestSandbox;
beforeEach(() => {
  s = testSandbox();
});
afterEach(() => s.close());

const open = async (id: string, body: Record<string, unknown> = {}) =>
  (await s.post(`/sandbox/v1/payment_sessions/${id}/disputes`, body)).body;
const helper = (disputeId: string, action: string, body?: unknown) =>
  s.post(`/sandbox/v1/disputes/${disputeId}/${action}`, body);
const types = async () => (await s.outbox()).map((e) => e.event_type).filter((t) => t.startsWith('dispute.'));
const refund = (id: string, amount: number, key: string) =>
  s.post('/payments/v1/refund', { payment_id: id, amount, idempotency_key: key, reason: 'customer_request' });

describe('the dispute table of the reference', () => {
  it('created → updated (state or phase changes) → silent re-sync → closed once → silent terminal re-sync', async () => {
    const id = await s.capturedOneTime();
    const dispute = await open(id);
    expect(dispute).toMatchObject({ state: 'needs_response', phase: 'dispute' });
    expect(await types()).toEqual(['dispute.created']);
    expect((await helper(dispute.dispute_id, 'sync', { state: 'under_review' })).body.state).toBe('under_review');
    await helper(dispute.dispute_id, 'sync', { state: 'under_review' });
    await helper(dispute.dispute_id, 'sync', { phase: 'pre_arbitration' });
    expect(await types()).toEqual(['dispute.created', 'dispute.updated', 'dispute.updated']);
    const won = await helper(dispute.dispute_id, 'resolve', { outcome: 'won' });
    expect(won.body).toMatchObject({ state: 'won', outcome: 'won', resolved_at: expect.any(String) });
    expect((await helper(dispute.dispute_id, 'sync', { state: 'won' })).status).toBe(200);
    expect((await helper(dispute.dispute_id, 'resolve', { outcome: 'won' })).status).toBe(200);
    expect(await types()).toEqual(['dispute.created', 'dispute.updated', 'dispute.updated', 'dispute.closed']);
    expect((await helper(dispute.dispute_id, 'sync', { state: 'lost' })).body.error).toBe('InvalidState');
  });

  it('omits null fields from the payload: no outcome or resolved_at until resolved', async () => {
    const id = await s.capturedOneTime();
    await open(id);
    const [created] = (await s.outbox('dispute.created')).map((e) => e.payload.data);
    expect(created).not.toHaveProperty('outcome');
    expect(created).not.toHaveProperty('resolved_at');
    expect(Object.values(created).filter((v) => v === null)).toEqual([]);
  });

  it('an inquiry: created, escalated (created again, as a chargeback), then closed', async () => {
    const id = await s.capturedOneTime();
    const inquiry = await open(id, { kind: 'inquiry' });
    expect(inquiry.phase).toBe('inquiry');
    expect((await helper(inquiry.dispute_id, 'resolve', { outcome: 'lost' })).body.error).toBe('InvalidState');
    const escalated = await helper(inquiry.dispute_id, 'escalate');
    expect(escalated.body).toMatchObject({ state: 'needs_response', phase: 'dispute' });
    expect((await helper(inquiry.dispute_id, 'escalate')).body.error).toBe('InvalidState');
    await helper(inquiry.dispute_id, 'resolve', { outcome: 'lost' });
    expect(await types()).toEqual(['dispute.created', 'dispute.created', 'dispute.closed']);
  });

  it('an inquiry the bank drops is closed, with dispute.closed', async () => {
    const id = await s.capturedOneTime();
    const inquiry = await open(id, { kind: 'inquiry' });
    const dropped = (await helper(inquiry.dispute_id, 'drop')).body;
    expect(dropped).toMatchObject({ state: 'closed', resolved_at: expect.any(String) });
    // A dropped inquiry has no outcome (the sandbox's choice, written in the disputes guide).
    expect(dropped).not.toHaveProperty('outcome');
    expect((await s.get(`/api/v1/disputes/${inquiry.dispute_id}`)).body).toEqual(dropped);
    // Dropped again: a re-sync of a terminal dispute, which is silent.
    expect((await helper(inquiry.dispute_id, 'drop')).status).toBe(200);
    expect(await types()).toEqual(['dispute.created', 'dispute.closed']);
    const chargeback = await open(id);
    expect((await helper(chargeback.dispute_id, 'drop')).body.error).toBe('InvalidState');
  });

  it('an inquiry that opened and closed before it was first seen fires nothing, yet can be retrieved', async () => {
    const id = await s.capturedOneTime();
    const inquiry = await open(id, { kind: 'inquiry', already_closed: true });
    expect(inquiry.state).toBe('closed');
    expect(await types()).toEqual([]);
    expect((await s.get(`/api/v1/disputes/${inquiry.dispute_id}`)).body.state).toBe('closed');
    // Closed: it blocks no refund.
    expect((await refund(id, 100, 'after-inquiry')).status).toBe(200);
  });

  it('evidence: evidence_submitted at each submission, updated only when the state changes', async () => {
    const id = await s.capturedOneTime();
    const dispute = await open(id);
    expect((await helper(dispute.dispute_id, 'evidence')).body.state).toBe('under_review');
    await helper(dispute.dispute_id, 'evidence');
    expect(await types()).toEqual([
      'dispute.created',
      'dispute.evidence_submitted',
      'dispute.updated',
      'dispute.evidence_submitted',
    ]);
    await helper(dispute.dispute_id, 'resolve', { outcome: 'expired' });
    expect((await helper(dispute.dispute_id, 'evidence')).body.error).toBe('InvalidState');
  });
});

describe("the contract's dispute operations", () => {
  it("retrieves the canonical dispute, and not another channel's", async () => {
    const id = await s.capturedOneTime();
    const dispute = await open(id, { amount: 1000, reason: 'product_not_received' });
    expect((await s.get(`/api/v1/disputes/${dispute.dispute_id}`)).body).toEqual(dispute);
    expect((await s.get(`/api/v1/disputes/${dispute.dispute_id}`, { key: OTHER_KEY })).status).toBe(404);
    expect((await s.get('/api/v1/disputes/0e6f1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b')).status).toBe(404);
    // Found by fuzzing: an id that is no UUID names no dispute (404), not an undeclared 400.
    expect((await s.get('/api/v1/disputes/%00')).body.error).toBe('NotFound');
  });

  it('a dispute_id that is no UUID answers 404 naming the path parameter, not the body', async () => {
    const reply = await s.get('/api/v1/disputes/xyz');
    expect({ status: reply.status, body: reply.body }).toEqual({
      status: 404,
      body: { error: 'NotFound', message: 'No resource: dispute_id must match format "uuid".' },
    });
  });

  it('lists disputes newest first by cursor, with has_more and next_cursor', async () => {
    const id = await s.capturedOneTime();
    const ids: string[] = [];
    for (const amount of [100, 200, 300]) ids.push((await open(id, { amount })).dispute_id);
    const first = await s.get('/v1/disputes?limit=2');
    expect(first.body.data.map((d: { id: string }) => d.id)).toEqual([ids[2], ids[1]]);
    expect(first.body).toMatchObject({ has_more: true, next_cursor: expect.stringMatching(/^dc_\d+$/) });
    expect(first.body.data[0]).toEqual({
      id: ids[2],
      processor: 'SANDBOX',
      charge_id: id,
      amount: 300,
      currency: 'USD',
      reason: 'fraudulent',
      state: 'needs_response',
      due_by: expect.any(String),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const second = await s.get(`/v1/disputes?limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body).toEqual({
      data: [expect.objectContaining({ id: ids[0] })],
      has_more: false,
      next_cursor: null,
    });
    expect((await s.get('/v1/disputes', { key: OTHER_KEY })).body).toEqual({
      data: [],
      has_more: false,
      next_cursor: null,
    });
    expect((await s.get(`/v1/disputes/${ids[1]}`)).body.id).toBe(ids[1]);
  });

  it.each(['limit=0', 'limit=101', 'limit=x', 'limit=1e1', 'limit=+5', 'cursor=abc', 'cursor=dc_', 'limit=1&limit=2'])(
    'answers InvalidRequestParameter for %s',
    async (query) => {
      const reply = await s.get(`/v1/disputes?${query}`);
      expect({ status: reply.status, error: reply.body.error }).toEqual({
        status: 400,
        error: 'InvalidRequestParameter',
      });
    },
  );

  it('accept: the dispute is accepted and closed, once; its amount leaves the refundable', async () => {
    const id = await s.capturedOneTime();
    const dispute = await open(id, { amount: 2000 });
    expect((await refund(id, 100, 'blocked')).body.error).toBe('ChargeDisputed');
    expect(await s.post(`/v1/disputes/${dispute.dispute_id}/accept`)).toMatchObject({ status: 200, body: {} });
    expect(await s.post(`/v1/disputes/${dispute.dispute_id}/accept`)).toMatchObject({ status: 200, body: {} });
    expect((await s.get(`/v1/disputes/${dispute.dispute_id}`)).body.state).toBe('accepted');
    expect(await types()).toEqual(['dispute.created', 'dispute.closed']);
    // 7799 captured, 2000 accepted: 5799 left to refund, not one cent more.
    expect((await refund(id, 5800, 'too-much')).body.error).toBe('AmountInvalid');
    expect((await refund(id, 5799, 'the-rest')).status).toBe(200);
    expect((await s.post(`/v1/disputes/${dispute.dispute_id}/accept`, undefined, { key: OTHER_KEY })).status).toBe(404);
  });

  it('a dispute under review still blocks refunds (ChargeDisputed), however it got there, until it is resolved', async () => {
    const synced = await s.capturedOneTime();
    const byBank = await open(synced, { amount: 2000 });
    expect((await helper(byBank.dispute_id, 'sync', { state: 'under_review' })).body.state).toBe('under_review');
    const refused = await refund(synced, 100, 'while-under-review');
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 400, error: 'ChargeDisputed' });
    // Evidence submitted: the partner's own way to under_review.
    const answered = await s.capturedOneTime();
    const withEvidence = await open(answered, { amount: 2000 });
    await helper(withEvidence.dispute_id, 'evidence');
    expect((await s.get(`/v1/disputes/${withEvidence.dispute_id}`)).body.state).toBe('under_review');
    expect((await refund(answered, 100, 'after-evidence')).body.error).toBe('ChargeDisputed');
    // Resolved, the same refund goes through: the dispute alone refused it.
    await helper(byBank.dispute_id, 'resolve', { outcome: 'won' });
    expect((await refund(synced, 100, 'while-under-review')).status).toBe(200);
  });

  it('a won dispute unblocks refunds and leaves the refundable whole', async () => {
    const id = await s.capturedOneTime();
    const dispute = await open(id, { amount: 2000 });
    await helper(dispute.dispute_id, 'resolve', { outcome: 'won' });
    expect((await refund(id, 7799, 'all')).status).toBe(200);
  });
});

describe('syncing and accepting an inquiry or a chargeback', () => {
  it('an inquiry synced to the chargeback phase escalates: dispute.created again, and it is a chargeback from then on', async () => {
    const id = await s.capturedOneTime();
    const inquiry = await open(id, { kind: 'inquiry' });
    expect((await helper(inquiry.dispute_id, 'sync', { phase: 'dispute' })).body).toMatchObject({
      phase: 'dispute',
      state: 'needs_response',
    });
    expect(await types()).toEqual(['dispute.created', 'dispute.created']);
    expect((await helper(inquiry.dispute_id, 'escalate')).body.error).toBe('InvalidState');
    expect((await helper(inquiry.dispute_id, 'resolve', { outcome: 'won' })).body.state).toBe('won');
  });

  it('sync keeps outcomes for chargebacks and closed for inquiries', async () => {
    const id = await s.capturedOneTime();
    const inquiry = await open(id, { kind: 'inquiry', amount: 100 });
    const chargeback = await open(id, { amount: 100 });
    expect((await helper(inquiry.dispute_id, 'sync', { state: 'lost' })).body.error).toBe('InvalidState');
    expect((await helper(chargeback.dispute_id, 'sync', { state: 'closed' })).body.error).toBe('InvalidState');
    expect((await helper(chargeback.dispute_id, 'sync', { state: 'lost' })).body.state).toBe('lost');
  });

  it('accept of a dispute already over answers {} and changes nothing; of an open inquiry, accepts it as a chargeback', async () => {
    const id = await s.capturedOneTime();
    const won = await open(id, { amount: 100 });
    await helper(won.dispute_id, 'resolve', { outcome: 'won' });
    expect(await s.post(`/v1/disputes/${won.dispute_id}/accept`)).toMatchObject({ status: 200, body: {} });
    expect((await s.get(`/api/v1/disputes/${won.dispute_id}`)).body.state).toBe('won');
    const inquiry = await open(id, { kind: 'inquiry', amount: 100 });
    expect((await s.post(`/v1/disputes/${inquiry.dispute_id}/accept`)).status).toBe(200);
    expect((await s.get(`/api/v1/disputes/${inquiry.dispute_id}`)).body).toMatchObject({
      state: 'accepted',
      phase: 'dispute',
      outcome: 'accepted',
    });
  });

  it('accept of an open inquiry escalates it to the chargeback phase first: dispute.created again, then dispute.closed', async () => {
    const id = await s.capturedOneTime();
    const inquiry = await open(id, { kind: 'inquiry', amount: 100 });
    await s.post(`/v1/disputes/${inquiry.dispute_id}/accept`);
    const events = (await s.outbox())
      .filter((e) => e.event_type.startsWith('dispute.'))
      .map((e) => [e.event_type, e.payload.data.phase, e.payload.data.state]);
    expect(events).toEqual([
      ['dispute.created', 'inquiry', 'needs_response'],
      ['dispute.created', 'dispute', 'needs_response'],
      ['dispute.closed', 'dispute', 'accepted'],
    ]);
    // Accepted again: already over, nothing more fires.
    await s.post(`/v1/disputes/${inquiry.dispute_id}/accept`);
    expect((await s.outbox()).filter((e) => e.event_type.startsWith('dispute.'))).toHaveLength(3);
  });
});

describe('status_summary of a disputed session, and what a dispute may claim', () => {
  it('status_summary is Disputed, not Refunded, when an accepted chargeback took the whole amount without a refund', async () => {
    const id = await s.capturedOneTime();
    const dispute = (await s.post(`/sandbox/v1/payment_sessions/${id}/disputes`, {})).body;
    expect((await s.detail(id)).body.status_summary).toBe('Disputed');
    expect((await s.post(`/v1/disputes/${dispute.dispute_id}/accept`, {})).status).toBe(200);
    expect((await s.detail(id)).body).toMatchObject({ status: 'captured', status_summary: 'Disputed' });
    const listed = await s.get('/payments/v1/payment_sessions?summarize_refunds=true');
    expect(listed.body.payment_sessions[0]).toMatchObject({ id, status_summary: 'Disputed', refund_amount: 0 });
  });

  it('status_summary stays Disputed after a lost dispute, also beside a refund; Refunded when refunds alone took it all', async () => {
    const disputed = await s.capturedOneTime(); // 7799
    await s.post('/payments/v1/refund', {
      payment_id: disputed,
      amount: 799,
      idempotency_key: 'rf-part',
      reason: 'customer_request',
    });
    const lost = (await s.post(`/sandbox/v1/payment_sessions/${disputed}/disputes`, { amount: 1000 })).body;
    await s.post(`/sandbox/v1/disputes/${lost.dispute_id}/resolve`, { outcome: 'lost' });
    expect((await s.detail(disputed)).body.status_summary).toBe('Disputed');
    const won = await s.capturedOneTime({ idempotency_key: 'won-one' });
    const wonDispute = (await s.post(`/sandbox/v1/payment_sessions/${won}/disputes`, {})).body;
    await s.post(`/sandbox/v1/disputes/${wonDispute.dispute_id}/resolve`, { outcome: 'won' });
    expect((await s.detail(won)).body.status_summary).toBe('Captured');
    const refunded = await s.capturedOneTime({ idempotency_key: 'refunded-one' });
    await s.post('/payments/v1/refund', {
      payment_id: refunded,
      amount: 7799,
      idempotency_key: 'rf-all',
      reason: 'customer_request',
    });
    expect((await s.detail(refunded)).body.status_summary).toBe('Refunded');
  });

  it('a dispute cannot claim more than the capture less refunds and other open disputes', async () => {
    const id = await s.capturedOneTime(); // 7799 captured
    await s.post('/payments/v1/refund', {
      payment_id: id,
      amount: 799,
      idempotency_key: 'rf',
      reason: 'customer_request',
    });
    const tooMuch = await s.post(`/sandbox/v1/payment_sessions/${id}/disputes`, { amount: 7001 });
    expect({ status: tooMuch.status, error: tooMuch.body.error }).toEqual({ status: 400, error: 'InvalidRequest' });
    expect((await s.post(`/sandbox/v1/payment_sessions/${id}/disputes`, { amount: 4000 })).status).toBe(200);
    const second = await s.post(`/sandbox/v1/payment_sessions/${id}/disputes`, {});
    expect(second.body.amount).toBe(3000);
    const none = await s.post(`/sandbox/v1/payment_sessions/${id}/disputes`, { amount: 1 });
    expect({ status: none.status, error: none.body.error }).toEqual({ status: 400, error: 'InvalidState' });
  });
});
