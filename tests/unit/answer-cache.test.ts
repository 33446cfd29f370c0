// A list page and a detail record are kept as the text answered (store/answer-cache.ts), so that
// the same read again touches no table. The kept answer must never outlive the data: a write of
// one of the channel's sessions drops it, and so does another process's commit; another channel's
// writes leave it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildSandbox } from '../../src/sandbox/http/app.js';
import { createStore, openDatabase } from '../../src/sandbox/store/index.js';
import { OTHER_KEY, sessionRequest, testSandbox, type TestSandbox } from '../../testkit/sandbox.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';

let s: TestSandbox;
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await s?.close();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('kept answers', () => {
  it('answer the same list again without reading a table, until a session of the channel changes', async () => {
    s = testSandbox();
    const first = await s.createSession();
    const reads = vi.spyOn(s.store.sessions, 'listItems');
    const before = await s.get('/payments/v1/payment_sessions?page_size=5');
    expect(await s.get('/payments/v1/payment_sessions?page_size=5')).toMatchObject({ status: 200, body: before.body });
    expect(reads).toHaveBeenCalledTimes(1);

    // Another channel's write leaves the answer kept.
    await s.post('/payments/v1/create_payment_session', sessionRequest({ idempotency_key: 'other-1' }), {
      key: OTHER_KEY,
    });
    expect((await s.get('/payments/v1/payment_sessions?page_size=5')).body).toEqual(before.body);
    expect(reads).toHaveBeenCalledTimes(1);

    // A new session of the channel, then a change of the first: each shows at once.
    const second = await s.createSession();
    const afterCreate = await s.get('/payments/v1/payment_sessions?page_size=5');
    expect(afterCreate.body.payment_sessions.map((item: { id: string }) => item.id)).toEqual([second, first]);
    await s.post(`/payments/v1/payment_session/${first}/cancel`, {});
    const afterCancel = await s.get('/payments/v1/payment_sessions?page_size=5');
    expect(afterCancel.body.payment_sessions.find((item: { id: string }) => item.id === first).status).toBe('canceled');
    expect(reads).toHaveBeenCalledTimes(3);
  });

  it('keep each query apart, and a refused query keeps nothing', async () => {
    s = testSandbox();
    await s.createSession();
    await s.complete(await s.createSession());
    const all = await s.get('/payments/v1/payment_sessions');
    const pendingOut = await s.get('/payments/v1/payment_sessions?filter_pending=true');
    expect(all.body.pagination.count).toBe(2);
    expect(pendingOut.body.pagination.count).toBe(1);
    const withFlags = await s.get('/payments/v1/payment_sessions?include_metadata=true&include_order_items=true');
    expect(withFlags.body.payment_sessions[0].order_items.length).toBeGreaterThan(0);
    expect((await s.get('/payments/v1/payment_sessions')).body).toEqual(all.body);
    // A key too long to keep (a query stuffed with parameters) is answered all the same, and computed each time.
    let computed = 0;
    const longKey = `list ${'x'.repeat(1200)}`;
    for (let n = 0; n < 2; n++)
      expect(s.store.sessions.answer('dev', longKey, () => `answer ${++computed}`)).toBe(`answer ${n + 1}`);
    expect(s.store.sessions.answer('dev', 'list short', () => 'kept')).toBe('kept');
    expect(s.store.sessions.answer('dev', 'list short', () => 'computed again')).toBe('kept');
    const refused = await s.get('/payments/v1/payment_sessions?page_size=0');
    expect(refused.status).toBe(400);
    expect((await s.get('/payments/v1/payment_sessions?page_size=0')).status).toBe(400);
  });

  it('answer a retrieve again without reading a table, and follow each change of the session', async () => {
    s = testSandbox();
    const id = await s.createSession({ kind: 'authorization' });
    const pending = await s.get(`/payments/v1/payment_session/${id}`);
    expect(pending.body.status).toBe('pending');
    // Changed behind the store's back, the row is not read again: the kept answer is.
    s.db.prepare(`UPDATE payment_sessions SET detail_view = '{"tampered":true}' WHERE id = ?`).run(id);
    expect((await s.get(`/payments/v1/payment_session/${id}`)).body).toEqual(pending.body);
    await s.complete(id);
    expect((await s.get(`/payments/v1/payment_session/${id}`)).body.status).toBe('authorized');
    await s.post(`/payments/v1/payment_session/${id}/void`, { idempotency_key: 'void-1' });
    const voided = await s.get(`/payments/v1/payment_session/${id}`);
    expect(voided.body.status).toBe('authorization_voided');
    // Unknown ids are never kept: the session created later is found.
    expect((await s.get('/payments/v1/payment_session/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it("are dropped by another process's commit on the same file", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'answer-cache-'));
    const file = path.join(dir, 'sandbox.db');
    const [hereDb, thereDb] = [openDatabase(file), openDatabase(file)];
    const [here, there] = [
      buildSandbox({ store: sqliteBackend(createStore(hereDb)) }),
      buildSandbox({ store: sqliteBackend(createStore(thereDb)) }),
    ];
    cleanups.push(async () => {
      await here.close();
      await there.close();
      hereDb.close();
      thereDb.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const headers = { 'x-service-api-key': 'sandbox-dev-key', 'content-type': 'application/json' };
    const list = async () =>
      (await here.inject({ method: 'GET', url: '/payments/v1/payment_sessions', headers })).json().pagination
        .count as number;
    expect(await list()).toBe(0);
    const created = await there.inject({
      method: 'POST',
      url: '/payments/v1/create_payment_session',
      headers,
      payload: JSON.stringify(sessionRequest({ idempotency_key: 'there-1' })),
    });
    const { id } = created.json() as { id: string };
    expect(await list()).toBe(1);
    const retrieve = async () =>
      (await here.inject({ method: 'GET', url: `/payments/v1/payment_session/${id}`, headers })).json()
        .status as string;
    expect(await retrieve()).toBe('pending');
    await there.inject({ method: 'POST', url: `/payments/v1/payment_session/${id}/cancel`, headers, payload: '{}' });
    expect(await retrieve()).toBe('canceled');
  });
});
