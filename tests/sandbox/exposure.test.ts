// Where the sandbox is reached and who may reach it: redirect_url comes from the public URL (never
// a request's Host header), and a sandbox other machines can reach refuses the published keys.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkPublicUrl, isLoopback, listenUrl, protectedModeRefusal } from '../../src/sandbox/exposure.js';
import { DEFAULT_API_KEYS } from '../../src/sandbox/http/auth.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { sessionRequest, testSandbox, type TestSandbox } from '../../testkit/sandbox.js';

const running: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
});

async function start(options: Partial<Parameters<typeof startSandbox>[0]>) {
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, db: ':memory:', quiet: true, ...options });
  running.push(sandbox);
  return sandbox;
}

const createOn = async (baseUrl: string, key = 'sandbox-dev-key', host?: string) => {
  const response = await fetch(`${baseUrl}/payments/v1/create_payment_session`, {
    method: 'POST',
    headers: { 'x-service-api-key': key, 'content-type': 'application/json', ...(host ? { host } : {}) },
    body: JSON.stringify(sessionRequest()),
  });
  return (await response.json()) as { id: string; redirect_url: string };
};

describe('protected mode', () => {
  it.each(['0.0.0.0', '::', '192.0.2.10', 'sandbox.internal'])(
    'refuses to start on %s with the published keys, and says why',
    async (host) => {
      await expect(start({ host })).rejects.toThrow(
        /^Protected mode: the sandbox would listen on .+ with the development keys that the README publishes \(sandbox-dev-key, sandbox-other-key\).*Set SANDBOX_API_KEYS to keys of your own/,
      );
      expect(
        protectedModeRefusal(
          host,
          new Map([
            ['mine', 'dev'],
            ['sandbox-other-key', 'other'],
          ]),
        ),
      ).toContain('(sandbox-other-key)');
    },
  );

  it('starts on every address with keys of its own, and answers only them', async () => {
    const sandbox = await start({ host: '0.0.0.0', apiKeys: 'team-key-1:dev' });
    const base = listenUrl('0.0.0.0', (sandbox.app.server.address() as { port: number }).port);
    expect(
      (await fetch(`${base}/payments/v1/payment_sessions`, { headers: { 'x-service-api-key': 'sandbox-dev-key' } }))
        .status,
    ).toBe(401);
    expect(
      (await fetch(`${base}/payments/v1/payment_sessions`, { headers: { 'x-service-api-key': 'team-key-1' } })).status,
    ).toBe(200);
  });

  it.each(['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1'])(
    'takes the published keys on the loopback address %s',
    (host) => {
      expect(isLoopback(host)).toBe(true);
      expect(protectedModeRefusal(host, DEFAULT_API_KEYS)).toBeUndefined();
    },
  );
});

describe('the public URL', () => {
  it('is the address it listens on by default, with the port it got, whatever the Host header says', async () => {
    const sandbox = await start({});
    const port = (sandbox.app.server.address() as { port: number }).port;
    expect(sandbox.publicUrl).toBe(`http://127.0.0.1:${port}`);
    const created = await createOn(sandbox.address, 'sandbox-dev-key', 'evil.example');
    expect(created.redirect_url).toBe(`http://127.0.0.1:${port}/checkout/${created.id}`);
  });

  it('is --public-url when given: a sandbox behind a proxy or on another host', async () => {
    const sandbox = await start({ publicUrl: 'https://sandbox.example:8443/' });
    const created = await createOn(sandbox.address);
    expect(created.redirect_url).toBe(`https://sandbox.example:8443/checkout/${created.id}`);
  });

  it.each([
    'sandbox.example',
    'ftp://sandbox.example',
    'https://sandbox.example/base',
    'https://user:pw@sandbox.example',
    'https://sandbox.example/?q=1',
    'javascript:alert(1)',
  ])('refuses --public-url %s, before it opens the database', async (url) => {
    expect(() => checkPublicUrl(url)).toThrow(
      `--public-url (SANDBOX_PUBLIC_URL) must be an http or https origin such as https://sandbox.example:8443, with no path, not ${JSON.stringify(url)}`,
    );
    await expect(start({ publicUrl: url, db: '/nonexistent-dir/never-created.db' })).rejects.toThrow('--public-url');
  });
});

describe('redirect_url, whatever the Host header says', () => {
  let s: TestSandbox;
  beforeEach(() => {
    s = testSandbox();
  });
  afterEach(() => s.close());

  it('builds redirect_url from the public URL, never from the Host header', async () => {
    // Host: evil.example gave http://evil.example/checkout/…: any client chose where the customer went.
    // Such a name is refused now (allowed-hosts.ts); a name the sandbox answers to is not used either.
    for (const host of ['evil.example', 'evil.example:8443', 'evil.example"><x']) {
      expect(
        (
          await s.post('/payments/v1/create_payment_session', sessionRequest(), {
            headers: { host },
            undocumented: true,
          })
        ).status,
      ).toBe(403);
    }
    for (const host of ['127.0.0.1:9999', 'localhost:8443', '[::1]:1']) {
      const { body } = await s.post('/payments/v1/create_payment_session', sessionRequest(), { headers: { host } });
      expect(body.redirect_url).toMatch(/^http:\/\/127\.0\.0\.1:4010\/checkout\/[0-9a-f-]{36}$/);
    }
    const token = await s.post(
      '/api/v1/payment_tokens/create',
      { success_url: 'https://a.example/ok', failure_url: 'https://a.example/ko' },
      { headers: { host: 'localhost:8443' } },
    );
    expect(token.body.redirect_url).toMatch(/^http:\/\/127\.0\.0\.1:4010\/checkout\/setup\//);
  });
});
