// A whole subscription with the typed client against the sandbox process, as a partner's
// integration test would run it against `npm start`: create a token, the customer finishes setup,
// the provision request and its eligibility, a charge, an expired card's 422 and its fix, a charge
// again, and an update that asks for a new survey. The customer and the clock are sandbox helpers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, hasErrorCode, type ServiceClient } from '../../src/client/index.js';
import { SANDBOX_API_KEY, startSandboxProcess, type SandboxProcess } from '../../testkit/sandbox-process.js';

let sandbox: SandboxProcess;
let client: ServiceClient;
beforeAll(async () => {
  sandbox = await startSandboxProcess({ db: ':memory:' });
  client = createServiceClient({ environment: sandbox.baseUrl, apiKey: SANDBOX_API_KEY });
}, 60_000);
afterAll(async () => {
  await sandbox?.stop();
});

/** A sandbox helper: the parts a partner's test cannot play through the contract. */
async function helper(method: string, path: string, body?: unknown) {
  const response = await fetch(`${sandbox.baseUrl}${path}`, {
    method,
    headers: { 'x-service-api-key': SANDBOX_API_KEY, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  expect(response.status, `${method} ${path}`).toBe(200);
  return response.json() as Promise<Record<string, any>>;
}

const noCharges = { total_additional_charges: 0, total_discounts: 0 };
const massageGun = {
  name: 'Percussion massage gun',
  sku: 'MSG-GUN-1',
  quantity: 1,
  price: 19900,
  amount_details: noCharges,
};

describe('a subscription with the typed client', () => {
  it('token, charge, expired card, fix, charge, new survey', async () => {
    // 1. Create a token (a provision token request) while the customer is present.
    const setup = await client.POST('/api/v1/payment_tokens/create', {
      body: {
        customer_email: 'sam@example.com',
        customer_name: 'Sam Doe',
        success_url: 'https://shop.example/plan/ok',
        failure_url: 'https://shop.example/plan/ko',
        metadata: '{"plan":"monthly"}',
      },
    });
    const requestId = setup.data!.provision_token_request_id;
    expect(setup.data!.redirect_url).toContain(`/checkout/setup/${requestId}`);

    // 2. The customer finishes setup with a card that expires this month; the letter awaits the clinician.
    const now = new Date((await helper('GET', '/sandbox/v1/clock')).now);
    const card = { number: '4242424242424242', exp_month: now.getUTCMonth() + 1, exp_year: now.getUTCFullYear() };
    expect(
      await helper('POST', `/sandbox/v1/provision_requests/${requestId}/complete`, { skus: ['MSG-GUN-1'], card }),
    ).toMatchObject({ status: 'awaiting_letter' });

    // 3. Redirected, but no token yet: the partner polls (the webhook may come after the redirect).
    expect(
      (
        await client.GET('/api/v1/payment_tokens/provision_request/{provision_token_request_id}', {
          params: { path: { provision_token_request_id: requestId } },
        })
      ).data,
    ).toEqual({ payment_token: null, metadata: '{"plan":"monthly"}' });
    const pending = await client.GET('/api/v1/eligibility/provision_request/{provision_token_request_id}', {
      params: { path: { provision_token_request_id: requestId } },
    });
    expect(pending.data).toEqual({ items: ['MSG-GUN-1'], eligibility_status: 'pending', lmn_expires_at: null });
    await helper('POST', `/sandbox/v1/provision_requests/${requestId}/letter`, { decision: 'approve' });
    const polled = await client.GET('/api/v1/payment_tokens/provision_request/{provision_token_request_id}', {
      params: { path: { provision_token_request_id: requestId } },
    });
    const token = polled.data!.payment_token!;
    expect(token).toMatch(/^ptok_/);
    const approved = await client.GET('/api/v1/eligibility/provision_request/{provision_token_request_id}', {
      params: { path: { provision_token_request_id: requestId } },
    });
    expect(approved.data?.eligibility_status).toBe('approved');
    const retrieved = await client.GET('/api/v1/payment_tokens/{payment_token}', {
      params: { path: { payment_token: token } },
    });
    expect(retrieved.data).toMatchObject({
      payment_token: token,
      customer_email: 'sam@example.com',
      lmn_expires_at: approved.data!.lmn_expires_at,
    });

    // 4. Charge with the token.
    const chargeBody = {
      payment_token: token,
      total_amount: 19900,
      amount_details: noCharges,
      order_items: [massageGun],
      success_url: 'https://shop.example/ok/{{payment_session_id}}',
      failure_url: 'https://shop.example/ko',
    };
    const charge = () => client.POST('/payments/v1/create_payment_session', { body: chargeBody });
    expect((await charge()).response.status).toBe(200);

    // 5. The card expires: 422 with the page that fixes it.
    await helper('POST', '/sandbox/v1/clock/advance', { seconds: 32 * 24 * 60 * 60 });
    const refused = await charge();
    expect(refused.response.status).toBe(422);
    expect(refused.error).toEqual({
      next_action: 'UpdatePaymentMethod',
      redirect_url: expect.stringContaining('/checkout/setup/'),
    });
    expect(hasErrorCode(refused.error, 'NotFound')).toBe(false);

    // 6. The customer enters a new card; 7. the charge goes through.
    const fixId = new URL((refused.error as { redirect_url: string }).redirect_url).pathname.split('/').pop()!;
    await helper('POST', `/sandbox/v1/provision_requests/${fixId}/complete`, {});
    const charged = await charge();
    expect(charged.response.status).toBe(200);
    expect(charged.data!.id).toMatch(/^[0-9a-f-]{36}$/);

    // 8. Items the letter does not cover: HealthSurvey.
    const updated = await client.POST('/api/v1/payment_tokens/{payment_token}/update', {
      params: { path: { payment_token: token } },
      body: {
        update_card_info: false,
        order_items: [
          { name: 'Vitamin D3 2000 IU', sku: 'VITD-2000', quantity: 1, price: 1500, amount_details: noCharges },
        ],
      },
    });
    expect(updated.data).toMatchObject({
      next_action: 'HealthSurvey',
      redirect_url: expect.stringContaining('/checkout/setup/'),
    });

    // The webhooks the partner received: the token, then its fix.
    const outbox = await helper('GET', '/sandbox/v1/outbox?event_type=payment_token.updated');
    expect(
      outbox.events.map(
        (e: { payload: { data: { provision_token_request_id: string } } }) => e.payload.data.provision_token_request_id,
      ),
    ).toEqual([requestId, fixId]);
  }, 60_000);
});
