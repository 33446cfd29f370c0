// The hosted pages over HTTP, for what a browser does not show: the forms they take and from whom, iframe
// mode, each page's content security policy, and what each page says; each sent here as the exact
// request first.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildSandbox } from '../../src/sandbox/http/app.js';
import { createStore, openDatabase } from '../../src/sandbox/store/index.js';
import { DEV_KEY, OTHER_KEY, sessionRequest, testSandbox, type TestSandbox } from '../../testkit/sandbox.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';

let s: TestSandbox;
beforeEach(() => {
  s = testSandbox();
});
afterEach(() => s.close());

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const paid = {
  state: 'CA',
  eligibility: 'eligible',
  card_number: '4242424242424242',
  card_expiry: '12/34',
  card_cvc: '123',
  confirm: '1',
};
const FORM_TYPE = 'application/x-www-form-urlencoded';
const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  s.app.inject({ method: 'POST', url, headers: { 'content-type': FORM_TYPE, ...headers }, payload: body });
/** The form token a page carries, as a customer's browser reads it. */
async function tokenOf(url: string, app = s.app): Promise<string> {
  const page = await app.inject({ method: 'GET', url });
  const token = /name="form_token" value="([^"]+)"/.exec(page.body)?.[1];
  if (!token) throw new Error(`no form token on ${url}`);
  return token;
}
/** The customer's form, sent from the page: with the page's token. */
const submit = async (id: string, body: string, type = FORM_TYPE, headers: Record<string, string> = {}) =>
  s.app.inject({
    method: 'POST',
    url: `/checkout/${id}`,
    headers: { 'content-type': type, ...headers },
    payload: `${body}&form_token=${await tokenOf(`/checkout/${id}`)}`,
  });
const createToken = async (fields: Record<string, unknown> = {}) =>
  (
    await s.post('/api/v1/payment_tokens/create', {
      success_url: 'https://a.example/ok',
      failure_url: 'https://a.example/ko',
      ...fields,
    })
  ).body.provision_token_request_id as string;
const provisionStatus = async (id: string) => (await s.get(`/sandbox/v1/provision_requests/${id}`)).body.status;

describe('what a hosted page takes, and how it answers', () => {
  it('redirects to a success_url with non-ASCII text percent-encoded, not a 500 after the charge', async () => {
    const id = await s.createSession({ success_url: 'https://shop.example/注文/{{payment_session_id}}?q=café' });
    const reply = await submit(id, form(paid));
    expect(reply.statusCode).toBe(303);
    expect(reply.headers.location).toBe(`https://shop.example/%E6%B3%A8%E6%96%87/${id}?q=caf%C3%A9`);
  });

  it('takes a form and only a form: JSON, text and multipart answer 415 and pay nothing', async () => {
    const id = await s.createSession();
    for (const [type, body] of [
      ['application/json', JSON.stringify(paid)],
      ['text/plain', 'x'],
      ['multipart/form-data; boundary=x', '--x--'],
    ] as const) {
      expect((await submit(id, body, type)).statusCode).toBe(415);
    }
    expect((await s.detail(id)).body.status).toBe('pending');
  });

  it('answers a form over 16 KiB with 413, not 500', async () => {
    const id = await s.createSession();
    expect((await submit(id, form({ ...paid, filler: 'x'.repeat(20_000) }))).statusCode).toBe(413);
  });

  it('refuses a state that is a built-in object name', async () => {
    const id = await s.createSession();
    const reply = await submit(id, form({ ...paid, state: '__proto__' }));
    expect(reply.statusCode).toBe(400);
    expect(reply.body).toContain('Choose your state of residence.');
    expect((await s.detail(id)).body.status).toBe('pending');
  });

  it('builds its form action from the route, never from an absolute request line', async () => {
    const id = await s.createSession();
    // A name the sandbox does not answer to is refused (allowed-hosts.ts); one it does is not echoed.
    expect((await s.app.inject({ method: 'GET', url: `http://evil.example/checkout/${id}` })).statusCode).toBe(403);
    const reply = await s.app.inject({ method: 'GET', url: `http://10.9.8.7:8080/checkout/${id}` });
    expect(reply.body).toContain(`action="/checkout/${id}"`);
    expect(reply.body).not.toContain('10.9.8.7');
  });

  it("a rejected session's page is closed and links failure_url", async () => {
    const id = await s.createSession();
    await s.complete(id);
    await s.review(id, 'decline');
    const reply = await s.app.inject({ method: 'GET', url: `/checkout/${id}` });
    expect(reply.body).toContain('This checkout is closed');
    expect(reply.body).toContain(`/orders/${id}/failed`);
  });

  it('pages are not cached and send no referrer to another origin', async () => {
    const id = await s.createSession();
    const page = await s.app.inject({ method: 'GET', url: `/checkout/${id}` });
    expect(page.headers).toMatchObject({
      'cache-control': 'no-store',
      'referrer-policy': 'same-origin',
      'x-content-type-options': 'nosniff',
    });
  });

  it('a token page prefills the state from customer_state and refuses an unknown clinician decision', async () => {
    const { body } = await s.post('/api/v1/payment_tokens/create', {
      success_url: 'https://a.example/ok',
      failure_url: 'https://a.example/ko',
      customer_state: 'NY',
    });
    const id = body.provision_token_request_id as string;
    expect((await s.app.inject({ method: 'GET', url: `/checkout/setup/${id}` })).body).toContain(
      '<option value="NY" selected>New York</option>',
    );
    const reply = await post(
      `/checkout/setup/${id}`,
      form({ ...paid, letter: 'bogus', action: 'finish', form_token: await tokenOf(`/checkout/setup/${id}`) }),
    );
    expect(reply.statusCode).toBe(400);
    expect((await s.get(`/sandbox/v1/provision_requests/${id}`)).body.status).toBe('awaiting_customer');
  });
});

describe('forms from other sites', () => {
  // The report: a session of another channel, paid by a form on another origin, without any key.
  const REPORTED =
    'state=CA&eligibility=eligible&card_number=4242424242424242&card_expiry=12/30&card_cvc=123&confirm=1';

  it('refuses the reported cross-site POST with a page that says so, and pays nothing', async () => {
    const id = await s.createSession({}, { key: OTHER_KEY });
    const reply = await post(`/checkout/${id}`, REPORTED, { origin: 'http://evil.example' });
    expect(reply.statusCode).toBe(403);
    expect(String(reply.headers['content-type'])).toContain('text/html');
    expect(reply.body).toContain('This form came from another site');
    expect(reply.body).toContain('Nothing was paid or changed.');
    expect(reply.headers).not.toHaveProperty('location');
    expect((await s.get(s.session(id), { key: OTHER_KEY })).body.status).toBe('pending');
  });

  it("refuses a cross-site or same-site POST even when it carries the page's token", async () => {
    const id = await s.createSession();
    const token = await tokenOf(`/checkout/${id}`);
    for (const headers of <Array<Record<string, string>>>[
      { origin: 'http://evil.example' },
      { origin: 'null' }, // a sandboxed frame or a data: page
      { origin: 'http://localhost:5173' }, // another port of the same host: same site, another origin
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'http://localhost', 'sec-fetch-site': 'cross-site' },
    ]) {
      const reply = await post(`/checkout/${id}`, form({ ...paid, form_token: token }), headers);
      expect({ headers, status: reply.statusCode }).toEqual({ headers, status: 403 });
      expect(reply.body).toContain('This form came from another site');
    }
    expect((await s.detail(id)).body.status).toBe('pending');
  });

  it("refuses a form without this page's token: none, a wrong one, another session's, or a token page's", async () => {
    const id = await s.createSession();
    const other = await s.createSession();
    const setup = await createToken();
    for (const token of [
      undefined,
      '',
      'x'.repeat(43),
      await tokenOf(`/checkout/${other}`),
      await tokenOf(`/checkout/setup/${setup}`),
    ]) {
      const reply = await post(
        `/checkout/${id}`,
        form({ ...paid, ...(token === undefined ? {} : { form_token: token }) }),
      );
      expect({ token, status: reply.statusCode }).toEqual({ token, status: 403 });
      expect(reply.body).toContain('This form has expired');
      expect(reply.body).toContain(`href="/checkout/${id}"`);
    }
    expect((await s.detail(id)).body.status).toBe('pending');
  });

  it("refuses a token page's form without its token, and takes it with it", async () => {
    const id = await createToken();
    const finish = form({ ...paid, action: 'finish' });
    expect((await post(`/checkout/setup/${id}`, finish)).statusCode).toBe(403);
    expect(
      (
        await post(`/checkout/setup/${id}`, `${finish}&form_token=${await tokenOf(`/checkout/setup/${id}`)}`, {
          origin: 'http://evil.example',
        })
      ).statusCode,
    ).toBe(403);
    expect(await provisionStatus(id)).toBe('awaiting_customer');
    const taken = await post(
      `/checkout/setup/${id}`,
      `${finish}&form_token=${await tokenOf(`/checkout/setup/${id}`)}`,
      { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' },
    );
    expect({ status: taken.statusCode, location: taken.headers.location }).toEqual({
      status: 303,
      location: 'https://a.example/ok',
    });
  });

  it("takes the page's own form: same origin, or no browser header at all (a script)", async () => {
    const browser = await s.createSession();
    const reply = await submit(browser, form(paid), FORM_TYPE, {
      origin: 'http://localhost',
      'sec-fetch-site': 'same-origin',
    });
    expect(reply.statusCode).toBe(303);
    expect((await s.detail(browser)).body.status).toBe('captured');
    const script = await s.createSession();
    expect((await submit(script, form(paid))).statusCode).toBe(303);
  });

  it('lets no other origin read a page, and so its token: the pages send no CORS header', async () => {
    const id = await s.createSession();
    for (const url of [`/checkout/${id}`, `/checkout/setup/${await createToken()}`]) {
      const page = await s.app.inject({ method: 'GET', url, headers: { origin: 'http://evil.example' } });
      expect(page.statusCode).toBe(200);
      expect(page.headers).not.toHaveProperty('access-control-allow-origin');
    }
  });

  it("takes a page rendered before a restart: the token's secret is kept in the database", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hosted-pages-'));
    try {
      const file = path.join(dir, 'sandbox.db');
      const start = () => {
        const db = openDatabase(file);
        return { db, app: buildSandbox({ store: sqliteBackend(createStore(db)) }) };
      };
      const first = start();
      const created = await first.app.inject({
        method: 'POST',
        url: '/payments/v1/create_payment_session',
        headers: { 'x-service-api-key': DEV_KEY },
        payload: sessionRequest({ success_url: 'https://shop.example/ok', failure_url: 'https://shop.example/ko' }),
      });
      const id = created.json().id as string;
      const token = await tokenOf(`/checkout/${id}`, first.app);
      await first.app.close();
      first.db.close();
      const second = start();
      const reply = await second.app.inject({
        method: 'POST',
        url: `/checkout/${id}`,
        headers: { 'content-type': FORM_TYPE },
        payload: form({ ...paid, form_token: token }),
      });
      expect({ status: reply.statusCode, location: reply.headers.location }).toEqual({
        status: 303,
        location: 'https://shop.example/ok',
      });
      await second.app.close();
      second.db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** One directive of a Content-Security-Policy header, without its name. */
const directive = (headers: Record<string, unknown>, name: string) =>
  String(headers['content-security-policy'])
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith(`${name} `))
    ?.slice(name.length + 1);
/** The outcome an iframe-mode end page posts to its parent window. */
const outcomeOf = (html: string) =>
  JSON.parse(/<script type="application\/json" id="outcome">(.*?)<\/script>/.exec(html)![1]!);

describe('iframe mode', () => {
  it('comes from the session, never from the URL: ?mode=iframe on a session created without use_iframe is an ordinary page', async () => {
    const id = await s.createSession();
    const framed = await s.app.inject({ method: 'GET', url: `/checkout/${id}?mode=iframe` });
    expect(directive(framed.headers, 'frame-ancestors')).toBe("'none'");
    expect(framed.headers['x-frame-options']).toBe('DENY');
    const token = await tokenOf(`/checkout/${id}?mode=iframe`);
    const answered = await post(`/checkout/${id}?mode=iframe`, form({ ...paid, form_token: token }));
    expect({ status: answered.statusCode, location: answered.headers.location }).toEqual({
      status: 303,
      location: `https://shop.example/orders/${id}/thanks`,
    });
    expect(answered.body).not.toContain('postMessage');
  });

  it('a use_iframe session may be framed by the origins of its success_url and failure_url only, and reports to the one it ends at', async () => {
    const id = await s.createSession({
      use_iframe: true,
      success_url: 'https://shop.example/ok/{{payment_session_id}}',
      failure_url: 'https://returns.example:8443/ko',
    });
    for (const url of [`/checkout/${id}?mode=iframe`, `/checkout/${id}`]) {
      const page = await s.app.inject({ method: 'GET', url });
      expect(directive(page.headers, 'frame-ancestors')).toBe('https://shop.example https://returns.example:8443');
      expect(page.headers).not.toHaveProperty('x-frame-options');
    }
    // The URL without ?mode=iframe changes nothing: the flow ends with the message all the same.
    const token = await tokenOf(`/checkout/${id}`);
    const done = await post(`/checkout/${id}`, form({ ...paid, form_token: token }));
    expect(done.statusCode).toBe(200);
    expect(outcomeOf(done.body)).toEqual({ success: true, redirectUrl: `https://shop.example/ok/${id}` });
    expect(directive(done.headers, 'frame-ancestors')).toBe('https://shop.example https://returns.example:8443');
    const other = await s.createSession({
      use_iframe: true,
      success_url: 'https://shop.example/ok',
      failure_url: 'https://returns.example:8443/ko',
    });
    const refused = await post(
      `/checkout/${other}`,
      form({ state: 'CA', eligibility: 'ineligible', form_token: await tokenOf(`/checkout/${other}`) }),
    );
    expect(outcomeOf(refused.body)).toEqual({ success: false, redirectUrl: 'https://returns.example:8443/ko' });
  });

  it("posts its message to the origin of the URL it reports, never to any window ('*')", async () => {
    const id = await s.createSession({ use_iframe: true });
    const done = await post(`/checkout/${id}`, form({ ...paid, form_token: await tokenOf(`/checkout/${id}`) }));
    expect(done.body).toContain(
      'parent.postMessage({ success: outcome.success, redirectUrl: outcome.redirectUrl }, new URL(outcome.redirectUrl).origin)',
    );
    expect(done.body).not.toContain("'*'");
  });

  it('a success_url or failure_url whose host would write into the policy is refused at create, and never reaches a header', async () => {
    // "https://shop.example;frame-ancestors/ok" added a frame-ancestors directive (the first one
    // counts, so any site could frame a session created without use_iframe); "https://*/ok" and
    // "http://*:4624/ok" made the partner's origin a wildcard.
    for (const url of [
      'https://shop.example;frame-ancestors/ok',
      'https://shop.example;script-src/ok',
      'https://*/ok',
      'http://*:4624/ok',
      "https://shop.example'/ok",
      'https://a,b.example/ok',
    ]) {
      for (const field of ['success_url', 'failure_url']) {
        const refused = await s.post(
          '/payments/v1/create_payment_session',
          sessionRequest({ use_iframe: true, [field]: url }),
        );
        expect({ url, status: refused.status, error: refused.body.error }).toEqual({
          url,
          status: 400,
          error: 'InvalidRequestParameter',
        });
        const token = await s.post('/api/v1/payment_tokens/create', {
          success_url: 'https://a.example/ok',
          failure_url: 'https://a.example/ko',
          use_iframe: true,
          [field]: url,
        });
        expect({ url, status: token.status, error: token.body.error }).toEqual({
          url,
          status: 400,
          error: 'ValidationError',
        });
      }
    }
    // A row written before this rule: its odd origin is left out of the policy, never copied in.
    const id = await s.createSession({
      use_iframe: true,
      success_url: 'https://shop.example/ok',
      failure_url: 'https://returns.example/ko',
    });
    s.db
      .prepare(
        "UPDATE payment_sessions SET document = json_set(document, '$.request.success_url', 'https://*;frame-ancestors/ok') WHERE id = ?",
      )
      .run(id);
    const page = await s.app.inject({ method: 'GET', url: `/checkout/${id}` });
    expect(directive(page.headers, 'frame-ancestors')).toBe('https://returns.example');
    expect(String(page.headers['content-security-policy'])).not.toMatch(/\*|;\s*;|frame-ancestors[^;]*frame-ancestors/);
  });

  it('the same for a provision token request: from use_iframe, framed by its own origins only', async () => {
    const plain = await createToken();
    const asked = await s.app.inject({ method: 'GET', url: `/checkout/setup/${plain}?mode=iframe` });
    expect(directive(asked.headers, 'frame-ancestors')).toBe("'none'");
    const finished = await post(
      `/checkout/setup/${plain}?mode=iframe`,
      form({ ...paid, action: 'finish', form_token: await tokenOf(`/checkout/setup/${plain}`) }),
    );
    expect({ status: finished.statusCode, location: finished.headers.location }).toEqual({
      status: 303,
      location: 'https://a.example/ok',
    });

    const framed = await createToken({
      use_iframe: true,
      customer_email: 'framed@example.com',
      failure_url: 'http://localhost:3000/ko',
    });
    const page = await s.app.inject({ method: 'GET', url: `/checkout/setup/${framed}` });
    expect(directive(page.headers, 'frame-ancestors')).toBe('https://a.example http://localhost:3000');
    const canceled = await post(
      `/checkout/setup/${framed}`,
      form({ action: 'cancel', form_token: await tokenOf(`/checkout/setup/${framed}`) }),
    );
    expect(outcomeOf(canceled.body)).toEqual({ success: false, redirectUrl: 'http://localhost:3000/ko' });
  });
});

/** The policy as a map of directive to its sources. */
const policyOf = (headers: Record<string, unknown>) =>
  Object.fromEntries(
    String(headers['content-security-policy'])
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...sources]) => [name!, sources.join(' ')]),
  );
/** The hash source of each inline <script> and <style> a page carries (data blocks run nothing). */
const inlineHashes = (html: string, tag: 'script' | 'style') =>
  [...html.matchAll(new RegExp(`<${tag}>(.*?)</${tag}>`, 'gs'))]
    .map((m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`)
    .join(' ');

describe('content security policy, page by page', () => {
  it('a checkout form allows its style by hash, no script, posting to itself and, through its redirect, to the partner', async () => {
    const id = await s.createSession({
      success_url: 'https://shop.example/ok',
      failure_url: 'https://returns.example/ko',
    });
    const reply = await s.app.inject({ method: 'GET', url: `/checkout/${id}` });
    expect(policyOf(reply.headers)).toEqual({
      'default-src': "'none'",
      'style-src': inlineHashes(reply.body, 'style'),
      // The confirmation's POST ends in a 303 to success_url or failure_url: chromium checks form-action on that redirect too.
      'form-action': "'self' https://shop.example https://returns.example",
      'base-uri': "'none'",
      'frame-ancestors': "'none'",
    });
    expect(reply.body).not.toMatch(/<script/);
  });

  it('a form shown again with errors allows the one script that focuses them, by its hash', async () => {
    const id = await s.createSession();
    const reply = await submit(id, form({ ...paid, card_number: '1' }));
    expect(reply.statusCode).toBe(400);
    const policy = policyOf(reply.headers);
    expect(policy['script-src']).toBe(inlineHashes(reply.body, 'script'));
    expect(policy['script-src']!.split(' ')).toHaveLength(1);
    expect(policy['form-action']).toBe("'self' https://shop.example");
  });

  it('an iframe-mode end page allows its reporting script only, no form, and the partner as its ancestor', async () => {
    const id = await s.createSession({ use_iframe: true });
    const reply = await submit(id, form(paid));
    expect(policyOf(reply.headers)).toEqual({
      'default-src': "'none'",
      'style-src': inlineHashes(reply.body, 'style'),
      'script-src': inlineHashes(
        reply.body.replace(/<script type="application\/json"[^>]*>.*?<\/script>/, ''),
        'script',
      ),
      'form-action': "'none'",
      'base-uri': "'none'",
      'frame-ancestors': 'https://shop.example',
    });
  });

  it('an iframe-mode form posts only to itself: its flow ends with a page, not a redirect', async () => {
    const id = await s.createSession({ use_iframe: true });
    expect(policyOf((await s.app.inject({ method: 'GET', url: `/checkout/${id}` })).headers)['form-action']).toBe(
      "'self'",
    );
  });

  it('pages without a form or script (closed, not found, refused) allow their style alone', async () => {
    const closed = await s.createSession();
    await s.complete(closed);
    const pages = [
      await s.app.inject({ method: 'GET', url: `/checkout/${closed}` }),
      await s.app.inject({ method: 'GET', url: '/checkout/00000000-0000-4000-8000-000000000000' }),
      await post(`/checkout/${closed}`, form(paid), { origin: 'http://evil.example' }),
      await post(`/checkout/${closed}`, form(paid)),
      await s.app.inject({ method: 'GET', url: `/checkout/setup/${await createToken()}` }),
    ];
    for (const reply of pages.slice(0, 4)) {
      expect({ status: reply.statusCode, policy: policyOf(reply.headers) }).toEqual({
        status: reply.statusCode,
        policy: {
          'default-src': "'none'",
          'style-src': inlineHashes(reply.body, 'style'),
          'form-action': "'none'",
          'base-uri': "'none'",
          'frame-ancestors': "'none'",
        },
      });
      expect(reply.headers['x-frame-options']).toBe('DENY');
    }
    // A token page: its form, and a redirect to its own exits.
    expect(policyOf(pages[4]!.headers)['form-action']).toBe("'self' https://a.example");
  });
});

describe('the pages say what they do', () => {
  const titleOf = (html: string) => /<h1>(.*?)<\/h1>/.exec(html)?.[1];
  const bannerOf = (html: string) => /<aside class="banner"[^>]*>(.*?)<\/aside>/.exec(html)![1]!;

  it('the checkout and its confirmation lead back to the store (failure_url) without paying', async () => {
    const id = await s.createSession({ failure_url: 'https://shop.example/cart' });
    const first = await s.app.inject({ method: 'GET', url: `/checkout/${id}` });
    const confirm = await submit(id, form({ ...paid, confirm: '' }));
    expect(titleOf(confirm.body)).toBe('Confirm your payment');
    for (const reply of [first, confirm])
      expect(reply.body).toContain(
        '<a href="https://shop.example/cart" target="_top">Back to the store without paying</a>',
      );
    expect((await s.detail(id)).body.status).toBe('pending');
  });

  it('the confirmation changes the card: the form again, the survey kept, the card empty, nothing paid', async () => {
    const id = await s.createSession();
    const changed = await submit(id, form({ ...paid, change_card: '1' }));
    expect([changed.statusCode, titleOf(changed.body)]).toEqual([200, 'HSA/FSA checkout']);
    expect(changed.body).toContain('<option value="CA" selected>');
    expect(changed.body).toContain('value="eligible" checked');
    expect(changed.body).toContain('id="card_number" name="card_number" value=""');
    expect((await s.detail(id)).body.status).toBe('pending');
    const confirm = await submit(id, form({ ...paid, confirm: '' }));
    expect(confirm.body).toContain(
      '<button type="submit" name="change_card" value="1" class="secondary">Change card</button>',
    );
  });

  it('the setup page asks about the card, lists no purchases it does not have, and its Cancel does not look like Save', async () => {
    const setup = await s.app.inject({ method: 'GET', url: `/checkout/setup/${await createToken()}` });
    expect(setup.body).not.toContain('these purchases');
    expect(setup.body).toContain(
      'Will you use this card for a medical condition you have, or one a clinician recommended?',
    );
    expect(setup.body).toContain('value="cancel" class="secondary">Cancel</button>');
    expect(setup.body).toContain('button.secondary{');
  });

  it('the setup banner speaks of saving a card, not of payments or holds; the checkout banner of payments', async () => {
    const setup = bannerOf((await s.app.inject({ method: 'GET', url: `/checkout/setup/${await createToken()}` })).body);
    expect(setup).not.toMatch(/hold|payment/i);
    expect(setup).toContain('No real card is saved.');
    expect(setup).toContain('Accepted: the card is saved.');
    const checkout = bannerOf(
      (await s.app.inject({ method: 'GET', url: `/checkout/${await s.createSession()}` })).body,
    );
    expect(checkout).toContain('No real payment is made.');
    expect(checkout).toContain('a hold is authorized');
  });

  it('the expired test card says that it is refused at once, and is', async () => {
    const banner = bannerOf((await s.app.inject({ method: 'GET', url: `/checkout/${await s.createSession()}` })).body);
    expect(banner).toContain('Expired card: refused at once, whatever expiry date is entered.');
    const id = await s.createSession();
    const refused = await submit(id, form({ ...paid, card_number: '4000000000000069', card_expiry: '12/45' }));
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('This card has expired');
  });

  it('the iframe end page names its outcome once, not "Done / Done."', async () => {
    const paidId = await s.createSession({ use_iframe: true });
    const done = await post(`/checkout/${paidId}`, form({ ...paid, form_token: await tokenOf(`/checkout/${paidId}`) }));
    expect(titleOf(done.body)).toBe('Your payment is submitted');
    expect(done.body).not.toMatch(/Done/);
    const refusedId = await s.createSession({ use_iframe: true });
    const refused = await post(
      `/checkout/${refusedId}`,
      form({ state: 'CA', eligibility: 'ineligible', form_token: await tokenOf(`/checkout/${refusedId}`) }),
    );
    expect(titleOf(refused.body)).toBe('Your payment was not made');
    const token = await createToken({ use_iframe: true, customer_email: 'framed@example.com' });
    const saved = await post(
      `/checkout/setup/${token}`,
      form({ ...paid, action: 'finish', form_token: await tokenOf(`/checkout/setup/${token}`) }),
    );
    expect(titleOf(saved.body)).toBe('Your card is saved');
  });

  it('as the sandbox guide says, the complete_checkout helper leaves a one-time payment processing, while card 4242 on the page captures it', async () => {
    const guide = readFileSync(path.join(import.meta.dirname, '../../docs/guides/sandbox.md'), 'utf8').replace(
      /\s+/g,
      ' ',
    );
    expect(guide).toContain(
      "it leaves a one-time payment (`kind: one_time_payment`) `processing`, awaiting the service's review",
    );
    const [byHelper, byPage] = [
      await s.createSession({ kind: 'one_time_payment' }),
      await s.createSession({ kind: 'one_time_payment' }),
    ];
    await s.complete(byHelper);
    await submit(byPage, form(paid));
    expect([(await s.detail(byHelper)).body.status, (await s.detail(byPage)).body.status]).toEqual([
      'processing',
      'captured',
    ]);
  });

  it('answers /favicon.ico with an empty 204, not a 404 that every page logs as a console error', async () => {
    const reply = await s.app.inject({ method: 'GET', url: '/favicon.ico' });
    expect([reply.statusCode, reply.body]).toEqual([204, '']);
  });
});

describe('the pages of a charge or a checkout that cannot go on', () => {
  it('a create-session 422 leads to a page about the token', async () => {
    const issuer = await s.createSession({ tokenize: true });
    const token = (await s.get(`/sandbox/v1/payment_sessions/${issuer}`)).body.issued_payment_token;
    await s.complete(issuer);
    await s.post(`/sandbox/v1/payment_tokens/${token}/require_action`, { next_action: 'TakeHealthSurvey' });
    const { body } = await s.post('/payments/v1/create_payment_session', sessionRequest({ payment_token: token }));
    const page = await s.call('GET', new URL(body.redirect_url).pathname);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Health survey');
  });

  it('a canceled checkout shows a timed-out page linking back to failure_url', async () => {
    const id = await s.createSession();
    await s.post(`${s.session(id)}/cancel`, {});
    const page = await s.call('GET', `/checkout/${id}`);
    expect(page.body).toContain('timed out');
    expect(page.body).toContain(`href="https://shop.example/orders/${id}/failed"`);
  });
});
