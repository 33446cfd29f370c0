// API keys an operator manages while the sandbox runs (keys/manage.ts): a key made serves its
// channel at once, with the seed catalog a channel starts with; it is stored as its hash only; a
// rotated key serves beside its successor until the overlap ends, then is refused; a revoked key is
// refused at once. The keys fixed at start keep working beside them.
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_SCOPE, channelScope } from '../../src/sandbox/domain/api-keys.js';
import { buildSandbox } from '../../src/sandbox/http/app.js';
import { Refusal } from '../../src/sandbox/domain/errors.js';
import { createKey, revokeKey, rotateKey } from '../../src/sandbox/keys/manage.js';
import { openDatabase } from '../../src/sandbox/store/database.js';
import { createStore } from '../../src/sandbox/store/index.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function sandbox() {
  const db = openDatabase(':memory:');
  const store = sqliteBackend(createStore(db));
  const app = buildSandbox({ store });
  closers.push(async () => {
    await app.close();
    db.close();
  });
  const get = (url: string, key: string) => app.inject({ method: 'GET', url, headers: { 'x-service-api-key': key } });
  return { db, store, app, get };
}

const SESSIONS = '/payments/v1/payment_sessions';
const CATALOG = '/api/v1/product_catalog/items/list';

describe('a managed key', () => {
  it('serves its channel from the next request, with the seed catalog, and the fixed keys keep theirs', async () => {
    const { store, get } = sandbox();
    const made = await createKey(store, channelScope('partner-a'));
    expect(made.key).toMatch(/^sk_sandbox_[A-Za-z0-9_-]{32}$/);
    expect(made).toMatchObject({ channel: 'partner-a', hint: made.key.slice(-4), expires_at: null, revoked_at: null });
    expect((await get(SESSIONS, made.key)).statusCode).toBe(200);
    const catalog = (await get(CATALOG, made.key)).json() as { data: unknown[] };
    const devCatalog = (await get(CATALOG, 'sandbox-dev-key')).json() as { data: unknown[] };
    expect(catalog.data.length).toBe(devCatalog.data.length);
    expect(catalog.data.length).toBeGreaterThan(0);
  });

  it("acts on its channel only: another channel's session is not found through it", async () => {
    const { store, app, get } = sandbox();
    const made = await createKey(store, channelScope('partner-a'));
    const created = await app.inject({
      method: 'POST',
      url: '/payments/v1/create_payment_session',
      headers: { 'x-service-api-key': 'sandbox-dev-key', 'content-type': 'application/json' },
      payload: {
        kind: 'authorization',
        total_amount: 1000,
        amount_details: { total_additional_charges: 0, total_discounts: 0 },
        success_url: 'https://shop.example/ok',
        failure_url: 'https://shop.example/ko',
        idempotency_key: 'managed-key-isolation',
        order_items: [
          {
            name: 'Item',
            sku: 'SKU-1',
            quantity: 1,
            price: 1000,
            amount_details: { total_additional_charges: 0, total_discounts: 0 },
          },
        ],
      },
    });
    const id = (created.json() as { id: string }).id;
    expect((await get(`/payments/v1/payment_session/${id}`, 'sandbox-dev-key')).statusCode).toBe(200);
    expect((await get(`/payments/v1/payment_session/${id}`, made.key)).statusCode).toBe(404);
  });

  it('is stored as its hash: the key itself is nowhere in the database', async () => {
    const { db, store } = sandbox();
    const made = await createKey(store, channelScope('partner-a'));
    const row = db.prepare('SELECT * FROM api_keys').get() as Record<string, unknown>;
    expect(Object.values(row)).not.toContain(made.key);
    expect(JSON.stringify(db.prepare('SELECT * FROM api_keys').all())).not.toContain(made.key.slice(11));
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is refused once revoked, from the next request; revoking it again is refused, and so is an unknown id', async () => {
    const { store, get } = sandbox();
    const made = await createKey(store, channelScope('partner-a'));
    expect((await get(SESSIONS, made.key)).statusCode).toBe(200);
    const revoked = await revokeKey(store, made.id);
    expect(revoked.revoked_at).not.toBeNull();
    const refused = await get(SESSIONS, made.key);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ error: 'Unauthorized', message: expect.any(String) });
    await expect(revokeKey(store, made.id)).rejects.toMatchObject({ code: 'InvalidState' });
    await expect(revokeKey(store, 'key_unknown')).rejects.toBeInstanceOf(Refusal);
  });

  it('serves beside its successor while the overlap lasts, and is refused once it has ended', async () => {
    const { store, get } = sandbox();
    const made = await createKey(store, channelScope('partner-a'));
    const now = Date.now();
    const { key: successor, previous } = await rotateKey(store, made.id, 60, new Date(now).toISOString());
    expect(successor.channel).toBe('partner-a');
    expect(previous.expires_at).toBe(new Date(now + 60_000).toISOString());
    expect((await get(SESSIONS, made.key)).statusCode).toBe(200);
    expect((await get(SESSIONS, successor.key)).statusCode).toBe(200);
    // A rotation with no overlap ends it at once.
    await rotateKey(store, successor.id, 0);
    expect((await get(SESSIONS, successor.key)).statusCode).toBe(401);
    // An ended key is not rotated again.
    await expect(rotateKey(store, successor.id, 60)).rejects.toMatchObject({ code: 'InvalidState' });
  });

  it('rotates a key once: one rotated already has its successor, and a retry makes no second one', async () => {
    const { db, store } = sandbox();
    const made = await createKey(store, channelScope('partner-a'));
    const { previous } = await rotateKey(store, made.id, 60);
    await expect(rotateKey(store, made.id, 60)).rejects.toMatchObject({
      code: 'InvalidState',
      message: `API key ${made.id} was rotated already and ends at ${previous.expires_at}: its successor serves beside it. Rotate the successor (keys list shows it), or revoke ${made.id} to end it now.`,
    });
    expect(db.prepare('SELECT COUNT(*) FROM api_keys').pluck().get()).toBe(2);
  });

  it("says an ended admin key's holder makes a new admin key, and a channel's a new key of the channel", async () => {
    const { store } = sandbox();
    const admin = await createKey(store, ADMIN_SCOPE);
    const channel = await createKey(store, channelScope('partner-a'));
    for (const key of [admin, channel]) await revokeKey(store, key.id);
    await expect(rotateKey(store, admin.id)).rejects.toThrow(
      `API key ${admin.id} has ended already; create a new admin key.`,
    );
    await expect(rotateKey(store, channel.id)).rejects.toThrow(
      `API key ${channel.id} has ended already; create a new key for channel partner-a.`,
    );
  });

  it('refuses a channel name and an overlap out of bounds before anything is written', async () => {
    const { db, store } = sandbox();
    await expect(createKey(store, channelScope('two words'))).rejects.toMatchObject({ code: 'InvalidRequest' });
    const made = await createKey(store, channelScope('ok'));
    await expect(rotateKey(store, made.id, -1)).rejects.toMatchObject({ code: 'InvalidRequest' });
    expect(db.prepare('SELECT COUNT(*) FROM api_keys').pluck().get()).toBe(1);
  });

  it('a key shaped like a managed one that was never made is refused like any unknown key', async () => {
    const { get } = sandbox();
    const response = await get(SESSIONS, 'sk_sandbox_notmadeatallnotmadeatallnotmadeat');
    expect(response.statusCode).toBe(401);
  });
});
