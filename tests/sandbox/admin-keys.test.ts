// The Administration helpers (openapi/sandbox.yaml): the managed API keys through an admin key, as
// `Authorization: Bearer`. Every answer is checked against the helper document (testSandbox). No
// other key opens them, and an admin key opens nothing else.
import { beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_SCOPE } from '../../src/sandbox/domain/api-keys.js';
import { createKey } from '../../src/sandbox/keys/manage.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';
import { testSandbox, type TestSandbox } from '../../testkit/sandbox.js';

const KEYS = '/sandbox/v1/admin/api_keys';
let s: TestSandbox;
let admin: { authorization: string };
beforeEach(async () => {
  s = testSandbox();
  admin = { authorization: `Bearer ${(await createKey(sqliteBackend(s.store), ADMIN_SCOPE)).key}` };
});
const asAdmin = { key: null, headers: {} as Record<string, string> };
const withAdmin = () => ({ ...asAdmin, headers: admin });

describe('the admin key', () => {
  it.each([
    ['no Authorization', {}],
    ['a channel key as the bearer', { authorization: 'Bearer sandbox-dev-key' }],
    ['an unknown managed key', { authorization: 'Bearer sk_sandbox_notmadeatallnotmadeatallnotmadeat' }],
    ['a scheme other than Bearer', { authorization: 'Basic c2FuZGJveA==' }],
  ])('is needed: %s answers 401 with WWW-Authenticate', async (_case, headers) => {
    const reply = await s.call('GET', KEYS, { key: null, headers });
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBe('Bearer realm="sandbox admin"');
    expect(reply.body.error).toBe('Unauthorized');
  });

  it("is not a channel's key: the development key in x-service-api-key does not open the helpers", async () => {
    const reply = await s.call('GET', KEYS, { headers: {} });
    expect(reply.status).toBe(401);
  });

  it("opens no channel's route: the contract refuses it as an unknown key", async () => {
    const token = admin.authorization.slice('Bearer '.length);
    const reply = await s.call('GET', '/payments/v1/payment_sessions', { key: token });
    expect(reply.status).toBe(401);
  });

  it('guards a wrong method on the helpers too: 401 without it, 405 with it', async () => {
    expect((await s.call('DELETE', KEYS, { key: null, undocumented: true })).status).toBe(401);
    const refused = await s.call('DELETE', KEYS, withAdmin());
    expect(refused.status).toBe(405);
    expect(refused.headers.allow).toBe('GET, POST');
  });
});

describe('the bodies of the helpers', () => {
  it.each([
    [
      'a key twice: the last would make an admin key',
      '{"channel":"dup1","channel":null}',
      'the key "channel" appears twice in one object',
    ],
    [
      '__proto__, which the parser would drop unseen',
      '{"channel":"x4","__proto__":1}',
      'the key "__proto__" is no field of this operation',
    ],
    [
      'constructor.prototype, the same',
      '{"channel":"x","constructor":{"prototype":{"a":1}}}',
      'the key "constructor" is no field of this operation',
    ],
  ])('refuse %s, and make no key', async (_case, raw, problem) => {
    const refused = await s.call('POST', KEYS, { ...withAdmin(), raw });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'InvalidRequest', message: `The request body is refused: ${problem}.` });
    expect((await s.get(KEYS, withAdmin())).body.keys).toHaveLength(1);
  });

  it('names ten reasons at most: a body of thousands of unknown fields gets no refusal larger than itself', async () => {
    const body = Object.fromEntries(Array.from({ length: 1500 }, (_, n) => [`field_${n}_${'x'.repeat(120)}`, 1]));
    const refused = await s.post(KEYS, { channel: 'a', ...body }, withAdmin());
    expect(refused.status).toBe(400);
    const { message } = refused.body as { message: string };
    expect(message.match(/has an unknown field/g)).toHaveLength(10);
    expect(message).toMatch(/; and 1490 more\.$/);
    // A field's name is quoted cut at 100 characters.
    expect(message).toContain(`"field_0_${'x'.repeat(92)}…"`);
    expect(message.length).toBeLessThan(2000);
  });

  it('every answer says no-store: a key is shown once, and no cache keeps it', async () => {
    const made = await s.post(KEYS, { channel: 'partner-a' }, withAdmin());
    expect(made.headers['cache-control']).toBe('no-store');
    const rotated = await s.post(`${KEYS}/${made.body.id}/rotate`, {}, withAdmin());
    expect(rotated.headers['cache-control']).toBe('no-store');
    expect((await s.get(KEYS, withAdmin())).headers['cache-control']).toBe('no-store');
  });
});

describe('the managed keys through the helpers', () => {
  it('create shows the key once, which serves its channel at once; list shows it without the key', async () => {
    const made = await s.post(KEYS, { channel: 'partner-a' }, withAdmin());
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ channel: 'partner-a', state: 'active', expires_at: null, revoked_at: null });
    expect((await s.call('GET', '/payments/v1/payment_sessions', { key: made.body.key })).status).toBe(200);
    const listed = await s.get(`${KEYS}?channel=partner-a`, withAdmin());
    expect(listed.body).toEqual({ keys: [{ ...made.body, key: undefined }], next_after: null });
    expect(JSON.stringify(listed.body)).not.toContain(made.body.key);
  });

  it('channel null makes an admin key, which opens the helpers; admin=true lists the admin keys only', async () => {
    const made = await s.post(KEYS, { channel: null }, withAdmin());
    expect(made.body.channel).toBeNull();
    await s.post(KEYS, { channel: 'partner-a' }, withAdmin());
    const asNew = { key: null, headers: { authorization: `Bearer ${made.body.key}` } };
    const admins = await s.get(`${KEYS}?admin=true`, asNew);
    expect(admins.body.keys.map((key: { channel: string | null }) => key.channel)).toEqual([null, null]);
  });

  it('pages oldest first: next_after reads on, and the last page says null', async () => {
    for (const channel of ['a', 'b', 'c']) await s.post(KEYS, { channel }, withAdmin());
    const first = await s.get(`${KEYS}?limit=2`, withAdmin());
    expect(first.body.keys).toHaveLength(2);
    expect(first.body.next_after).not.toBeNull();
    const second = await s.get(`${KEYS}?limit=2&after=${first.body.next_after}`, withAdmin());
    // The admin key of beforeEach came first.
    expect([...first.body.keys, ...second.body.keys].map((key: { channel: string }) => key.channel)).toEqual([
      null,
      'a',
      'b',
      'c',
    ]);
    expect(second.body.next_after).toBeNull();
  });

  it('rotate keeps the old key serving for the overlap beside its successor; revoke ends a key at once', async () => {
    const made = await s.post(KEYS, { channel: 'partner-a' }, withAdmin());
    const rotated = await s.post(`${KEYS}/${made.body.id}/rotate`, { overlap_seconds: 3600 }, withAdmin());
    expect(rotated.status).toBe(200);
    expect(rotated.body.previous).toMatchObject({ id: made.body.id, state: 'expiring' });
    expect(Date.parse(rotated.body.previous.expires_at) - Date.now()).toBeGreaterThan(3500_000);
    for (const key of [made.body.key, rotated.body.key.key])
      expect((await s.call('GET', '/payments/v1/payment_sessions', { key })).status).toBe(200);
    const revoked = await s.post(`${KEYS}/${made.body.id}/revoke`, undefined, withAdmin());
    expect(revoked.body).toMatchObject({ id: made.body.id, state: 'revoked' });
    expect((await s.call('GET', '/payments/v1/payment_sessions', { key: made.body.key })).status).toBe(401);
    expect((await s.call('GET', '/payments/v1/payment_sessions', { key: rotated.body.key.key })).status).toBe(200);
  });

  it('a rotation without a body gives the default overlap of 24 hours', async () => {
    const made = await s.post(KEYS, { channel: 'partner-a' }, withAdmin());
    const rotated = await s.post(`${KEYS}/${made.body.id}/rotate`, undefined, withAdmin());
    const hours = (Date.parse(rotated.body.previous.expires_at) - Date.parse(rotated.body.key.created_at)) / 3600_000;
    expect(hours).toBe(24);
  });

  it.each([
    ['a channel name with a space', 'POST', KEYS, { channel: 'partner a' }, 'InvalidRequest'],
    ['no channel at all', 'POST', KEYS, {}, 'InvalidRequest'],
    ['an unknown field', 'POST', KEYS, { channel: 'a', role: 'admin' }, 'InvalidRequest'],
    [
      'an overlap past 30 days',
      'POST',
      `${KEYS}/key_0123456789abcdef/rotate`,
      { overlap_seconds: 2592001 },
      'InvalidRequest',
    ],
    ['a negative overlap', 'POST', `${KEYS}/key_0123456789abcdef/rotate`, { overlap_seconds: -1 }, 'InvalidRequest'],
    ['both channel and admin=true', 'GET', `${KEYS}?channel=a&admin=true`, undefined, 'InvalidRequest'],
    ['a limit of 0', 'GET', `${KEYS}?limit=0`, undefined, 'InvalidRequest'],
  ])('refuses %s: 400 %s', async (_case, method, url, body, code) => {
    const reply = await s.call(method, url, { ...withAdmin(), ...(body !== undefined ? { body } : {}) });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe(code);
  });

  it('an unknown key id is 404, and so is one not shaped like an id; a revoked key is neither rotated nor revoked again', async () => {
    expect((await s.post(`${KEYS}/key_0123456789abcdef/revoke`, undefined, withAdmin())).status).toBe(404);
    expect((await s.post(`${KEYS}/sk_sandbox_x/revoke`, undefined, withAdmin())).status).toBe(404);
    const made = await s.post(KEYS, { channel: 'partner-a' }, withAdmin());
    await s.post(`${KEYS}/${made.body.id}/revoke`, undefined, withAdmin());
    const again = await s.post(`${KEYS}/${made.body.id}/revoke`, undefined, withAdmin());
    expect(again.body).toEqual({ error: 'InvalidState', message: expect.stringContaining('was revoked already') });
    const rotate = await s.post(`${KEYS}/${made.body.id}/rotate`, undefined, withAdmin());
    expect(rotate.body).toEqual({ error: 'InvalidState', message: expect.stringContaining('has ended already') });
  });
});
