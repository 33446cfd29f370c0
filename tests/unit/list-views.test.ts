// A list page with the default flags is joined from each session's stored rendering (list_view)
// instead of parsing and rebuilding every document. It must be the same JSON the documents give,
// for sessions in every state, fresh after each write, and rendered from the document for a row
// written before renderings were stored (or by another version of the rendering).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionListFilter } from '../../src/sandbox/domain/listing.js';
import { LIST_VIEW_VERSION, listItemOf } from '../../src/sandbox/domain/views.js';
import { sessionColumns } from '../../src/sandbox/store/session-columns.js';
import { renderListView } from '../../src/sandbox/store/session-projection.js';
import { describePinnedRendering } from '../support/golden-session.js';
import { testSandbox, type TestSandbox } from '../../testkit/sandbox.js';

let s: TestSandbox;
afterEach(async () => {
  vi.restoreAllMocks();
  await s?.close();
});

const page = { offset: 0, limit: 30 };
const fromDocuments = (sandbox: TestSandbox) =>
  sandbox.store.sessions
    .list('dev', sessionListFilter({}), page)
    .sessions.map((session) => JSON.stringify(listItemOf(session, {})));
const fromViews = (sandbox: TestSandbox) => sandbox.store.sessions.listViews('dev', sessionListFilter({}), page).views;

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
  return { refunded, disputed };
}

describe('the stored list rendering', () => {
  it('is the JSON the documents give, for sessions in every state', async () => {
    s = testSandbox();
    await sessionsInEveryState(s);
    const views = fromViews(s);
    expect(views).toHaveLength(5);
    expect(views).toEqual(fromDocuments(s));
    expect(views.some((v) => JSON.parse(v).refunds.length === 1)).toBe(true);
    expect(views.some((v) => JSON.parse(v).disputes.length === 1)).toBe(true);
  });

  it('is what the default list answers, and it parses no document to answer it', async () => {
    s = testSandbox();
    await sessionsInEveryState(s);
    const expected = fromDocuments(s).map((v) => JSON.parse(v));
    const parse = vi.spyOn(JSON, 'parse');
    const views = fromViews(s);
    expect(parse).not.toHaveBeenCalled();
    parse.mockRestore();
    expect(views.map((v) => JSON.parse(v))).toEqual(expected);
    const reply = await s.get('/payments/v1/payment_sessions');
    expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(reply.body.payment_sessions).toEqual(expected);
    expect(reply.body.pagination).toMatchObject({ count: 5 });
  });

  it('follows each write: a refund after the first list shows in the next', async () => {
    s = testSandbox();
    const { refunded } = await sessionsInEveryState(s);
    const before = (await s.get('/payments/v1/payment_sessions')).body.payment_sessions.find(
      (item: { id: string }) => item.id === refunded,
    );
    await s.post('/payments/v1/refund', {
      payment_id: refunded,
      amount: 700,
      idempotency_key: 'r-2',
      reason: 'customer_request',
    });
    const after = (await s.get('/payments/v1/payment_sessions')).body.payment_sessions.find(
      (item: { id: string }) => item.id === refunded,
    );
    expect([before.refunds.length, after.refunds.length]).toEqual([1, 2]);
    expect(fromViews(s)).toEqual(fromDocuments(s));
  });

  it('renders from the document a row written before renderings were stored, or by another version', async () => {
    s = testSandbox();
    await sessionsInEveryState(s);
    const expected = fromDocuments(s);
    s.db.prepare('UPDATE payment_sessions SET list_view = NULL, list_view_version = NULL WHERE rowid % 2 = 0').run();
    s.db
      .prepare(`UPDATE payment_sessions SET list_view = '{"stale":true}', list_view_version = 0 WHERE rowid % 2 = 1`)
      .run();
    expect(fromViews(s)).toEqual(expected);
  });
});

describePinnedRendering('list', {
  version: LIST_VIEW_VERSION,
  goldenFile: new URL('./fixtures/list-view-golden.json', import.meta.url),
  render: renderListView,
  stored: (session) => {
    const { list_view: text, list_view_version: version } = sessionColumns(session);
    return { text, version };
  },
});
