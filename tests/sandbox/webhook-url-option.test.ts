// --webhook-url and --webhook-secret as the sandbox takes them at start (startSandbox's `webhook`
// option, which the command line and SANDBOX_WEBHOOK_URL / SANDBOX_WEBHOOK_SECRET fill): the URLs it
// refuses, with the reason a developer reads, and the one endpoint it owns on the development
// channel across restarts on the same database file. And the token event's other spelling, as the
// helper route takes it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { DEV_KEY, testSandbox } from '../../testkit/sandbox.js';

const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-webhook-url-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const running: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
});

async function start(webhook: { url: string; secret?: string }, db = ':memory:') {
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, db, quiet: true, webhook });
  running.push(sandbox);
  return sandbox;
}

/** Closes it now, as a restart does. */
async function stop(sandbox: { close: () => Promise<void> }) {
  running.splice(running.indexOf(sandbox), 1);
  await sandbox.close();
}

/** Why the sandbox refused to start with this --webhook-url. */
async function refusal(url: string): Promise<string> {
  try {
    await start({ url });
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`started with --webhook-url ${url}`);
}

describe('--webhook-url: the URLs the sandbox refuses at start', () => {
  it('refuses a URL that is not absolute, quoting at most its first 100 characters', async () => {
    expect(await refusal('not a url')).toBe('--webhook-url not a url: url is not an absolute URL: "not a url".');
    const long = `receiver/${'x'.repeat(200)}`;
    expect(await refusal(long)).toBe(`--webhook-url ${long}: url is not an absolute URL: "${long.slice(0, 100)}".`);
  });

  it('refuses another scheme than http and https', async () => {
    for (const url of ['ftp://files.example/hooks', 'file:///tmp/hooks', 'ws://127.0.0.1:9/hooks']) {
      expect(await refusal(url)).toBe(`--webhook-url ${url}: url must be an http or https URL.`);
    }
  });

  it('refuses a user, a password, or both, in the URL', async () => {
    for (const url of [
      'http://user:pass@127.0.0.1:9/hooks',
      'http://user@127.0.0.1:9/hooks',
      'https://:pass@127.0.0.1:9/hooks',
    ]) {
      expect(await refusal(url)).toBe(`--webhook-url ${url}: url must not carry a user or a password.`);
    }
  });

  it('takes http and https URLs', async () => {
    expect((await start({ url: 'https://receiver.example/hooks' })).webhook).toMatchObject({
      url: 'https://receiver.example/hooks',
      mode: 'signed',
    });
    expect((await start({ url: 'HTTP://127.0.0.1:9/hooks' })).webhook).toMatchObject({
      url: 'HTTP://127.0.0.1:9/hooks',
      mode: 'signed',
    });
  });
});

describe('--webhook-url: the endpoint it owns on the development channel', () => {
  const endpointsOf = async (sandbox: Awaited<ReturnType<typeof start>>) =>
    (
      await sandbox.app.inject({
        method: 'GET',
        url: '/sandbox/v1/webhook_endpoints',
        headers: { 'x-service-api-key': DEV_KEY },
      })
    ).json().endpoints as Array<Record<string, unknown>>;

  it('is added with the secret given, or one made when none is; a restart with another URL or secret points the same endpoint there, and one without a secret keeps the secret in use', async () => {
    const db = path.join(dir, 'restarts.db');
    const first = await start({ url: 'http://127.0.0.1:9/first', secret: 'whsec_one' }, db);
    expect(first.webhook).toEqual({
      channel: 'dev',
      url: 'http://127.0.0.1:9/first',
      secret: 'whsec_one',
      mode: 'signed',
      event_types: ['*'],
    });
    const [endpoint] = await endpointsOf(first);
    expect(endpoint).toMatchObject({
      id: expect.stringMatching(/^we_[0-9A-Za-z]+$/),
      url: 'http://127.0.0.1:9/first',
      secret: 'whsec_one',
      mode: 'signed',
      event_types: ['*'],
    });
    await stop(first);

    // Another URL, no secret: the same endpoint, pointed there, with the secret it had.
    const second = await start({ url: 'http://127.0.0.1:9/second' }, db);
    expect(second.webhook).toEqual({
      channel: 'dev',
      url: 'http://127.0.0.1:9/second',
      secret: 'whsec_one',
      mode: 'signed',
      event_types: ['*'],
    });
    expect(await endpointsOf(second)).toEqual([{ ...endpoint, url: 'http://127.0.0.1:9/second' }]);
    await stop(second);

    // The same URL, another secret.
    const third = await start({ url: 'http://127.0.0.1:9/second', secret: 'whsec_two' }, db);
    expect(third.webhook).toMatchObject({ url: 'http://127.0.0.1:9/second', secret: 'whsec_two' });
    expect(await endpointsOf(third)).toEqual([{ ...endpoint, url: 'http://127.0.0.1:9/second', secret: 'whsec_two' }]);
    await stop(third);

    // Nothing new: nothing changes.
    const fourth = await start({ url: 'http://127.0.0.1:9/second' }, db);
    expect(fourth.webhook).toMatchObject({ url: 'http://127.0.0.1:9/second', secret: 'whsec_two' });
    expect(await endpointsOf(fourth)).toEqual([{ ...endpoint, url: 'http://127.0.0.1:9/second', secret: 'whsec_two' }]);
  });

  it('makes a secret when none is given', async () => {
    const sandbox = await start({ url: 'http://127.0.0.1:9/hooks' });
    expect(sandbox.webhook!.secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    expect(await endpointsOf(sandbox)).toEqual([
      expect.objectContaining({ id: expect.stringMatching(/^we_/), secret: sandbox.webhook!.secret }),
    ]);
  });
});

describe("the helper route: the token event's other spelling", () => {
  it("takes payment_token_updated, the reference's spelling, as payment_token.updated, once", async () => {
    const s = testSandbox();
    try {
      const added = await s.post('/sandbox/v1/webhook_endpoints', {
        url: 'http://127.0.0.1:9/hooks',
        event_types: ['payment_token_updated', 'payment_token.updated', 'dispute.*'],
      });
      expect({ status: added.status, event_types: added.body.event_types }).toEqual({
        status: 200,
        event_types: ['payment_token.updated', 'dispute.*'],
      });
    } finally {
      await s.close();
    }
  });
});
