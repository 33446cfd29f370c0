// A retrieve answers each session's stored detail rendering (detail_view), one text read by one
// statement. It must be the JSON the document gives, for sessions in every state, fresh after each
// write, and rendered from the document for a row written before renderings were stored (or by
// another version of the rendering).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DETAIL_VIEW_VERSION, toDetail } from '../../src/sandbox/domain/views.js';
import { sessionColumns } from '../../src/sandbox/store/session-columns.js';
import { renderDetailView } from '../../src/sandbox/store/session-projection.js';
import { describePinnedRendering } from '../support/golden-session.js';
import { testSandbox, type TestSandbox } from '../../testkit/sandbox.js';

let s: TestSandbox;
afterEach(async () => {
  vi.restoreAllMocks();
  await s?.close();
});

const ids = (sandbox: TestSandbox) =>
  sandbox.db.prepare('SELECT id FROM payment_sessions ORDER BY seq').pluck().all() as string[];
const fromDocument = (sandbox: TestSandbox, id: string) =>
  JSON.stringify(toDetail(sandbox.store.sessions.get('dev', id)!));

async function sessionsInEveryState(sandbox: TestSandbox) {
  await sandbox.createSession();
  await sandbox.authorized();
  const refunded = await sandbox.capturedOneTime();
  await sandbox.post('/payments/v1/refund', {
    payment_id: refunded,
    amount: 500,
    idempotency_key: 'r-1',
    reason: 'customer_request',
  });
  const disputed = await sandbox.capturedOneTime();
  await sandbox.post(`/sandbox/v1/payment_sessions/${disputed}/disputes`, { amount: 1000 });
  const canceled = await sandbox.createSession();
  await sandbox.post(`/payments/v1/payment_session/${canceled}/cancel`, {});
  return { refunded };
}

describe('the stored detail rendering', () => {
  it('is the JSON the document gives, for sessions in every state, and what retrieve answers without parsing a document', async () => {
    s = testSandbox();
    await sessionsInEveryState(s);
    const all = ids(s);
    expect(all).toHaveLength(5);
    const expected = all.map((id) => fromDocument(s, id));
    const parse = vi.spyOn(JSON, 'parse');
    expect(all.map((id) => s.store.sessions.detailView('dev', id))).toEqual(expected);
    expect(parse).not.toHaveBeenCalled();
    parse.mockRestore();
    for (const [n, id] of all.entries()) {
      const reply = await s.get(`/payments/v1/payment_session/${id}`);
      expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(reply.body).toEqual(JSON.parse(expected[n]!));
    }
  });

  it('follows each write: a refund shows in the next retrieve', async () => {
    s = testSandbox();
    const { refunded } = await sessionsInEveryState(s);
    const before = (await s.get(`/payments/v1/payment_session/${refunded}`)).body;
    await s.post('/payments/v1/refund', {
      payment_id: refunded,
      amount: 700,
      idempotency_key: 'r-2',
      reason: 'customer_request',
    });
    const after = (await s.get(`/payments/v1/payment_session/${refunded}`)).body;
    expect([before.status_summary, after.status_summary]).toEqual(['Partially Refunded', 'Partially Refunded']);
    expect(
      after.order_items
        .map((item: { total_refundable: number }) => item.total_refundable)
        .reduce((a: number, b: number) => a + b),
    ).toBe(
      before.order_items
        .map((item: { total_refundable: number }) => item.total_refundable)
        .reduce((a: number, b: number) => a + b) - 700,
    );
    expect(s.store.sessions.detailView('dev', refunded)).toBe(fromDocument(s, refunded));
  });

  it('renders from the document a row written before renderings were stored, or by another version', async () => {
    s = testSandbox();
    await sessionsInEveryState(s);
    const expected = ids(s).map((id) => fromDocument(s, id));
    s.db
      .prepare('UPDATE payment_sessions SET detail_view = NULL, detail_view_version = NULL WHERE rowid % 2 = 0')
      .run();
    s.db
      .prepare(
        `UPDATE payment_sessions SET detail_view = '{"stale":true}', detail_view_version = 0 WHERE rowid % 2 = 1`,
      )
      .run();
    expect(ids(s).map((id) => s.store.sessions.detailView('dev', id))).toEqual(expected);
  });

  it("is another channel's session not found", async () => {
    s = testSandbox();
    const id = await s.createSession();
    expect(s.store.sessions.detailView('another', id)).toBeUndefined();
    expect(s.store.sessions.detailView('dev', id)).toBe(fromDocument(s, id));
  });
});

describePinnedRendering('detail', {
  version: DETAIL_VIEW_VERSION,
  goldenFile: new URL('./fixtures/detail-view-golden.json', import.meta.url),
  render: renderDetailView,
  stored: (session) => {
    const { detail_view: text, detail_view_version: version } = sessionColumns(session);
    return { text, version };
  },
});
