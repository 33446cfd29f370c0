// The contract's OpenAPI links, followed against the sandbox the way a stateful tester does: the
// value each link's runtime expression picks from a real response is the id its target takes, and
// the target then finds the resource (and succeeds, when the resource is in the state it needs).
// Every response is checked against the documents by the test sandbox.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contract, operationById } from '../../testkit/contract.js';
import { documentLinks, followLink } from '../support/links.js';
import { noCharges, sessionRequest, testSandbox, type Reply, type TestSandbox } from '../../testkit/sandbox.js';

let s: TestSandbox;
beforeEach(() => {
  s = testSandbox();
});
afterEach(() => s.close());

const links = documentLinks(contract);
const linksFrom = (operationId: string) =>
  links.filter((l) => l.source.operation.operationId === operationId && l.status === '200');

/** Calls the link's target with what the link picks from `responseBody`, its body fields merged over `body`. */
function follow(source: string, target: string, responseBody: unknown, body?: Record<string, unknown>): Promise<Reply> {
  const found = linksFrom(source).find((l) => l.link.operationId === target);
  if (!found) throw new Error(`${source} has no link to ${target}`);
  const { parameters, body: fields } = followLink(found.link, responseBody);
  const { method, path } = operationById(target);
  const url = path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(String(parameters[name])));
  const merged = body || Object.keys(fields).length > 0 ? { ...body, ...fields } : undefined;
  return s.call(method.toUpperCase(), url, merged === undefined ? {} : { body: merged });
}

describe('links from a created payment session', () => {
  const create = (overrides: Record<string, unknown> = {}) =>
    s.post('/payments/v1/create_payment_session', sessionRequest(overrides)).then((r) => r.body as { id: string });

  /** Each target: the session it needs (from its create answer), the rest of its body, and what it answers. */
  const targets: Record<
    string,
    {
      prepare: () => Promise<{ id: string }>;
      body?: Record<string, unknown>;
      expect: (reply: Reply, id: string) => void;
    }
  > = {
    retrievePaymentSession: {
      prepare: () => create(),
      expect: (reply, id) =>
        expect({ status: reply.status, id: reply.body.id, status_: reply.body.status }).toEqual({
          status: 200,
          id,
          status_: 'pending',
        }),
    },
    capturePaymentSession: {
      prepare: async () => {
        const created = await create({ kind: 'authorization' });
        await s.complete(created.id);
        return created;
      },
      body: { total_amount: 7799, idempotency_key: 'link-capture' },
      expect: (reply) => expect(reply.status).toBe(200),
    },
    voidPaymentSession: {
      prepare: async () => {
        const created = await create({ kind: 'authorization' });
        await s.complete(created.id);
        return created;
      },
      body: { idempotency_key: 'link-void' },
      expect: (reply) => expect(reply.status).toBe(200),
    },
    cancelPaymentSession: {
      prepare: () => create(),
      expect: (reply, id) =>
        expect({ status: reply.status, id: reply.body.id, status_: reply.body.status }).toEqual({
          status: 200,
          id,
          status_: 'canceled',
        }),
    },
    createRefund: {
      prepare: async () => {
        const created = await create();
        await s.complete(created.id);
        await s.review(created.id, 'accept');
        return created;
      },
      body: { amount: 1000, idempotency_key: 'link-refund', reason: 'customer_request' },
      expect: (reply) =>
        expect({ status: reply.status, refund_id: typeof reply.body.refund_id }).toEqual({
          status: 200,
          refund_id: 'string',
        }),
    },
  };

  it('has a link to each of these targets, and no other', () => {
    expect(
      linksFrom('createPaymentSession')
        .map((l) => l.link.operationId)
        .sort(),
    ).toEqual(Object.keys(targets).sort());
  });

  it.each(Object.keys(targets))('%s finds the session the link names, and succeeds', async (target) => {
    const { prepare, body, expect: check } = targets[target]!;
    const created = await prepare();
    check(await follow('createPaymentSession', target, created, body), created.id);
  });
});

describe('links from a provision token request and a payment token', () => {
  const setup = (email: string) =>
    s
      .post('/api/v1/payment_tokens/create', {
        success_url: 'https://shop.example/plan/ok',
        failure_url: 'https://shop.example/plan/ko',
        customer_email: email,
        customer_name: 'Pat Lee',
      })
      .then((r) => r.body as { provision_token_request_id: string });
  const finish = (requestId: string) =>
    s.post(`/sandbox/v1/provision_requests/${requestId}/complete`, { letter: 'approved' });
  const thermometer = { name: 'Thermometer', sku: 'TH-10', quantity: 1, price: 1250, amount_details: noCharges };
  const charge = sessionRequest({ total_amount: 1250, amount_details: noCharges, order_items: [thermometer] });

  it('create payment token leads to its provision token request and its eligibility', async () => {
    const created = await setup('pat@example.com');
    const request = await follow('createPaymentToken', 'retrieveProvisionTokenRequest', created);
    expect(request).toMatchObject({ status: 200, body: { payment_token: null } });
    const eligibility = await follow('createPaymentToken', 'retrieveProvisionRequestEligibility', created);
    expect(eligibility).toMatchObject({ status: 200, body: { eligibility_status: 'never_requested' } });
  });

  it.each(['retrieveProvisionTokenRequest', 'retrievePaymentToken'])(
    '%s leads to the token: update, a charge with it, then delete',
    async (source) => {
      const created = await setup('pat@example.com');
      await finish(created.provision_token_request_id);
      const request = await s.get(`/api/v1/payment_tokens/provision_request/${created.provision_token_request_id}`);
      const token = request.body.payment_token as string;
      expect(token).toEqual(expect.any(String));
      const answer =
        source === 'retrievePaymentToken'
          ? (await s.get(`/api/v1/payment_tokens/${encodeURIComponent(token)}`)).body
          : request.body;
      if (source === 'retrieveProvisionTokenRequest') {
        expect(await follow(source, 'retrievePaymentToken', answer)).toMatchObject({
          status: 200,
          body: { payment_token: token },
        });
      }
      expect(
        await follow(source, 'updatePaymentToken', answer, { update_card_info: false, order_items: [thermometer] }),
      ).toMatchObject({ status: 200, body: { next_action: 'None' } });
      const charged = await follow(source, 'createPaymentSession', answer, charge);
      expect(charged.status).toBe(200);
      expect((await s.detail(charged.body.id)).body.status).toBe('processing');
      expect((await follow(source, 'deletePaymentToken', answer)).status).toBe(200);
      expect((await s.get(`/api/v1/payment_tokens/${encodeURIComponent(token)}`)).status).toBe(404);
    },
  );

  it('an update that asks the customer for something leads to its provision token request and its eligibility', async () => {
    const created = await setup('pat@example.com');
    await finish(created.provision_token_request_id);
    const token = (await s.get(`/api/v1/payment_tokens/provision_request/${created.provision_token_request_id}`)).body
      .payment_token as string;
    const updated = await s.post(`/api/v1/payment_tokens/${encodeURIComponent(token)}/update`, {
      update_card_info: true,
    });
    expect(updated.body.provision_token_request_id).toEqual(expect.any(String));
    expect(await follow('updatePaymentToken', 'retrieveProvisionTokenRequest', updated.body)).toMatchObject({
      status: 200,
      body: { payment_token: null },
    });
    expect((await follow('updatePaymentToken', 'retrieveProvisionRequestEligibility', updated.body)).status).toBe(200);
  });
});
