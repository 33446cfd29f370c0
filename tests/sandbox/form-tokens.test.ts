// The anti-forgery tokens, attacked by editing a real one: a hosted page's form token and the
// dashboard's Resend token are taken only whole. A check changed to take a prefix (or a token with
// something after it) let a token cut to its first character pay, and no test noticed.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEV_KEY, testSandbox, type TestSandbox } from '../../testkit/sandbox.js';

let s: TestSandbox;
beforeEach(() => {
  s = testSandbox();
});
afterEach(() => s.close());

const FORM_TYPE = 'application/x-www-form-urlencoded';
const paid = {
  state: 'CA',
  eligibility: 'eligible',
  card_number: '4242424242424242',
  card_expiry: '12/34',
  card_cvc: '123',
  confirm: '1',
};
const post = (url: string, fields: Record<string, string>) =>
  s.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': FORM_TYPE },
    payload: new URLSearchParams(fields).toString(),
  });
async function tokenOf(url: string): Promise<string> {
  const token = /name="form_token" value="([^"]+)"/.exec((await s.app.inject({ method: 'GET', url })).body)?.[1];
  if (!token) throw new Error(`no form token on ${url}`);
  return token;
}
const createToken = async () =>
  (
    await s.post('/api/v1/payment_tokens/create', {
      success_url: 'https://a.example/ok',
      failure_url: 'https://a.example/ko',
    })
  ).body.provision_token_request_id as string;

/** The page's own token, edited: cut to its first character, to all but its last, one character longer, its last character changed. */
const edits = (token: string) => [
  token.slice(0, 1),
  token.slice(0, -1),
  `${token}A`,
  `${token}${token}`,
  `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
];

describe("a hosted page's form token, edited", () => {
  it("refuses the page's token cut to its first character, and pays nothing", async () => {
    const id = await s.createSession();
    const token = await tokenOf(`/checkout/${id}`);
    const reply = await post(`/checkout/${id}`, { ...paid, form_token: token.slice(0, 1) });
    expect(reply.statusCode).toBe(403);
    expect(reply.body).toContain('This form has expired');
    expect(reply.body).toContain('Nothing was paid or changed.');
    expect((await s.detail(id)).body.status).toBe('pending');
    // The page's own token, whole, still pays.
    expect((await post(`/checkout/${id}`, { ...paid, form_token: token })).statusCode).toBe(303);
    expect((await s.detail(id)).body.status).toBe('captured');
  });

  it("refuses every other edit of the page's token, and another session's or a token page's", async () => {
    const id = await s.createSession();
    const token = await tokenOf(`/checkout/${id}`);
    const other = await tokenOf(`/checkout/${await s.createSession()}`);
    const setup = await tokenOf(`/checkout/setup/${await createToken()}`);
    for (const sent of [...edits(token), other, setup, other.slice(0, 1)]) {
      const reply = await post(`/checkout/${id}`, { ...paid, form_token: sent });
      expect({ sent, status: reply.statusCode }).toEqual({ sent, status: 403 });
    }
    expect((await s.detail(id)).body.status).toBe('pending');
  });

  it("refuses a token page's form with its token edited, or a session's token, and saves no card", async () => {
    const id = await createToken();
    const token = await tokenOf(`/checkout/setup/${id}`);
    const session = await s.createSession();
    for (const sent of [...edits(token), await tokenOf(`/checkout/${session}`)]) {
      const reply = await post(`/checkout/setup/${id}`, { ...paid, action: 'finish', form_token: sent });
      expect({ sent, status: reply.statusCode }).toEqual({ sent, status: 403 });
    }
    expect((await s.get(`/sandbox/v1/provision_requests/${id}`)).body.status).toBe('awaiting_customer');
    expect(
      (await post(`/checkout/setup/${id}`, { ...paid, action: 'finish', form_token: token })).headers.location,
    ).toBe('https://a.example/ok');
  });
});

describe("the dashboard's Resend token, edited", () => {
  const HOST = '127.0.0.1:4010';
  const OWN = { host: HOST, origin: `http://${HOST}`, 'sec-fetch-site': 'same-origin' };
  const dashboardToken = async () =>
    /id="dashboard-settings">\{"token":"([^"]+)"\}</.exec(
      (await s.app.inject({ method: 'GET', url: '/dashboard/', headers: { host: HOST } })).body,
    )![1]!;
  const resend = (eventId: string, token: string) =>
    s.call('POST', `/dashboard/outbox/${eventId}/redeliver`, {
      key: DEV_KEY,
      headers: { ...OWN, 'x-dashboard-token': token },
      undocumented: true,
    });

  it("refuses the page's token with its HMAC cut or lengthened, or its value and HMAC from two pages, and queues nothing", async () => {
    await s.post('/sandbox/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/hooks', secret: 'whsec_x' });
    await s.capturedOneTime();
    const eventId = (await s.outbox())[0]!.id;
    const [token, another] = [await dashboardToken(), await dashboardToken()];
    const [value, mac] = token.split('.') as [string, string];
    const before = s.db.prepare('SELECT count(*) FROM deliveries').pluck().get();
    for (const sent of [
      `${value}.${mac.slice(0, 1)}`,
      `${value}.${mac.slice(0, -1)}`,
      `${token}A`,
      `${value}.${mac}${mac}`,
      `${value.slice(0, -1)}.${mac}`,
      `${value}.${another.split('.')[1]}`,
      `${another.split('.')[0]}.${mac}`,
      value,
      token.slice(0, 1),
    ]) {
      const reply = await resend(eventId, sent);
      expect({ sent, status: reply.status, error: reply.body.error }).toEqual({
        sent,
        status: 403,
        error: 'Forbidden',
      });
    }
    expect(s.db.prepare('SELECT count(*) FROM deliveries').pluck().get()).toBe(before);
    expect((await resend(eventId, token)).status).toBe(200);
  });
});
