// list_payment_sessions: every filter, search, date ranges, comma lists, include flags,
// summarize_refunds, pagination, and newest first.
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newSession } from '../../src/sandbox/domain/create-session.js';
import { MAX_SEARCH_LENGTH, MAX_SEARCH_MATCHES } from '../../src/sandbox/domain/search-bounds.js';
import type { CreateSessionRequest } from '../../src/sandbox/domain/types.js';
import { DEV_KEY, OTHER_KEY, sessionRequest, testSandbox, type TestSandbox } from '../../testkit/sandbox.js';

let s: TestSandbox;
const ids: Record<string, string> = {};
const list = async (query = '') => (await s.get(`/payments/v1/payment_sessions${query ? `?${query}` : ''}`)).body;
const listIds = async (query = '') => (await list(query)).payment_sessions.map((p: { id: string }) => p.id);

beforeEach(async () => {
  s = testSandbox();
  // Created one after the other, a clock tick apart, so that "newest first" is observable.
  const tick = () => s.post('/sandbox/v1/clock/advance', { seconds: 60 });
  ids.pending = await s.createSession({ customer_email: 'pending.person@example.com', customer_name: 'Pat Pending' });
  await tick();
  ids.captured = await s.capturedOneTime({ customer_email: 'cap@example.com', customer_name: 'Casey Captured' });
  await tick();
  ids.authorized = await s.authorized({ customer_email: 'auth@example.com' });
  await tick();
  ids.voided = await s.authorized({ customer_email: 'void@example.com' });
  await s.post(`${s.session(ids.voided)}/void`, {});
  await s.post('/payments/v1/refund', {
    payment_id: ids.captured,
    amount: 1250,
    idempotency_key: 'r1',
    reason: 'customer_request',
  });
});
afterEach(() => s.close());

describe('list payment sessions', () => {
  it('lists everything, newest creation first, with pagination', async () => {
    const body = await list();
    expect(body.payment_sessions.map((p: { id: string }) => p.id)).toEqual([
      ids.voided,
      ids.authorized,
      ids.captured,
      ids.pending,
    ]);
    expect(body.pagination).toEqual({ current_page: 1, page_size: 30, count: 4, last_page: 1 });
  });

  it('pages with page and page_size', async () => {
    expect(await listIds('page=2&page_size=3')).toEqual([ids.pending]);
    expect((await list('page=2&page_size=3')).pagination).toEqual({
      current_page: 2,
      page_size: 3,
      count: 4,
      last_page: 2,
    });
    expect(await listIds('page=3&page_size=3')).toEqual([]);
  });

  it('filters pending and voided sessions out, newest first', async () => {
    expect(await listIds('filter_pending=true')).toEqual([ids.voided, ids.authorized, ids.captured]);
    expect(await listIds('filter_voided=true')).toEqual([ids.authorized, ids.captured, ids.pending]);
    expect(await listIds('filter_pending=true&filter_voided=true')).toEqual([ids.authorized, ids.captured]);
    expect((await list('filter_pending=true&filter_voided=true')).pagination.count).toBe(2);
  });

  it('filter_voided leaves out authorization_voided only, canceled stays; filter_pending leaves out pending only, processing stays', async () => {
    const canceled = await s.createSession({ kind: 'authorization' });
    await s.post(`${s.session(canceled)}/cancel`, {});
    const processing = await s.createSession();
    await s.complete(processing);
    const voidedOut = await listIds('filter_voided=true');
    expect(voidedOut).toContain(canceled);
    expect(voidedOut).not.toContain(ids.voided);
    const pendingOut = await listIds('filter_pending=true');
    expect(pendingOut).toContain(processing);
    expect(pendingOut).not.toContain(ids.pending);
    expect((await list('filter_pending=true&filter_voided=true')).pagination.count).toBe(4);
  });

  it('filters by comma-separated kind and status lists, newest first', async () => {
    expect(await listIds('kind=authorization')).toEqual([ids.voided, ids.authorized]);
    // The order of the list's values is not the order of the answer.
    expect(await listIds('status=captured,authorized')).toEqual([ids.authorized, ids.captured]);
    expect(await listIds('status=authorized,captured')).toEqual([ids.authorized, ids.captured]);
    expect(await listIds('kind=one_time_payment,authorization')).toEqual([
      ids.voided,
      ids.authorized,
      ids.captured,
      ids.pending,
    ]);
    expect(await listIds('kind=one_time_payment&page_size=1&page=2')).toEqual([ids.pending]);
  });

  it('searches the session id, email and name', async () => {
    expect(await listIds('search=casey')).toEqual([ids.captured]);
    expect(await listIds('search=PENDING.PERSON')).toEqual([ids.pending]);
    expect(await listIds(`search=${ids.voided!.slice(0, 8)}`)).toEqual([ids.voided]);
  });

  it("searches the user business id: the customer's, the same on all its sessions and on its token", async () => {
    const userOf = async (id: string) => (await s.detail(id)).body.user_business_id as string;
    const pendingUser = await userOf(ids.pending!);
    expect(pendingUser).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // The same email, in another case: the same customer. No email: a customer of the session's own.
    const again = await s.createSession({
      customer_email: 'PENDING.Person@example.com',
      customer_name: 'Someone Else',
    });
    const anonymous = await s.createSession({ customer_email: undefined, customer_name: undefined });
    expect(await userOf(again)).toBe(pendingUser);
    expect(new Set([pendingUser, await userOf(ids.captured!), await userOf(anonymous)]).size).toBe(3);
    // A charge with a token is the token's user's, whatever email the request names.
    const issuer = await s.createSession({ tokenize: true, customer_email: 'cap@example.com' });
    await s.complete(issuer);
    const token = (await s.get(`/sandbox/v1/payment_sessions/${issuer}`)).body.issued_payment_token as string;
    const charged = (
      await s.post(
        '/payments/v1/create_payment_session',
        sessionRequest({ payment_token: token, customer_email: 'pending.person@example.com' }),
      )
    ).body.id as string;
    const capUser = await userOf(ids.captured!);
    expect([await userOf(issuer), await userOf(charged)]).toEqual([capUser, capUser]);
    expect((await s.get(`/api/v1/payment_tokens/${token}`)).body.user_business_id).toBe(capUser);
    // search matches it, whole or in part, and on list items too.
    expect(await listIds(`search=${pendingUser}`)).toEqual([again, ids.pending]);
    expect(await listIds(`search=${capUser.slice(-12)}`)).toEqual([charged, issuer, ids.captured]);
    expect(
      (await list(`search=${capUser}`)).payment_sessions.map((p: { user_business_id: string }) => p.user_business_id),
    ).toEqual([capUser, capUser, capUser]);
    // Indexed or still queued for the index, the answer is the same.
    s.store.sessions.indexPendingSearches();
    expect(await listIds(`search=${capUser.toUpperCase()}`)).toEqual([charged, issuer, ids.captured]);
  });

  it('filters by creation and capture dates, inclusive', async () => {
    const created = (await s.get(`/sandbox/v1/payment_sessions/${ids.captured}`)).body.created_at as string;
    expect(
      await listIds(`created_on_start=${encodeURIComponent(created)}&created_on_end=${encodeURIComponent(created)}`),
    ).toEqual([ids.captured]);
    expect(await listIds(`captured_on_start=${encodeURIComponent(created)}`)).toEqual([ids.captured]);
    expect(await listIds('captured_on_end=2000-01-01T00:00:00Z')).toEqual([]);
    // Times before 1970 compare as well as any other.
    expect(await listIds('created_on_end=1969-12-31T00:00:00Z')).toEqual([]);
    expect((await list('created_on_start=0001-01-01T00:00:00Z')).pagination.count).toBe(4);
  });

  it('filters by payment_token', async () => {
    const tokenSession = await s.createSession({ tokenize: true });
    const token = (await s.get(`/sandbox/v1/payment_sessions/${tokenSession}`)).body.issued_payment_token;
    expect(await listIds(`payment_token=${token}`)).toEqual([tokenSession]);
  });

  it('includes the optional fields only when asked', async () => {
    const plain = (await list()).payment_sessions.find((p: { id: string }) => p.id === ids.captured);
    expect(plain.order_items).toBeUndefined();
    expect(plain.metadata).toBeUndefined();
    expect(plain.service_fee).toBeUndefined();
    expect(plain.refund_amount).toBeUndefined();
    expect(plain.refunds).toHaveLength(1);
    expect(plain.disputes).toEqual([]);
    expect(plain.authorized_on).toBe(plain.captured_on);

    const full = (
      await list(
        'include_order_items=true&include_metadata=true&include_service_fee=true&summarize_refunds=true&include_disputes=false',
      )
    ).payment_sessions.find((p: { id: string }) => p.id === ids.captured);
    expect(full).toMatchObject({ refund_amount: 1250, metadata: '{"order_id":"A-1001"}', service_fee: '0.00' });
    expect(full.order_items).toHaveLength(2);
    expect(full.refunds).toBeUndefined();
    expect(full.disputes).toBeUndefined();
    expect((await list('include_refunds=false')).payment_sessions[0].refunds).toBeUndefined();
  });

  it.each([
    'page=abc',
    'page=0',
    'page_size=-1',
    'kind=subscription',
    'status=captured,lost',
    'filter_pending=maybe',
    'created_on_start=yesterday',
  ])('answers an invalid query (%s) with the declared 400 InvalidRequestParameter', async (query) => {
    const { status, body } = await s.get(`/payments/v1/payment_sessions?${query}`, {});
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'InvalidRequestParameter' });
    expect(body.message).toMatch(/\w+/);
  });
});

describe('a search, whatever another channel holds', () => {
  /** `count` sessions of channel dev, written straight to the store: the API would take too long. */
  const seedDev = (count: number) =>
    s.store.transaction(() => {
      for (let i = 0; i < count; i++) {
        const request = sessionRequest({
          customer_email: `buyer${i}@example.com`,
          customer_name: `Buyer ${i}`,
        }) as CreateSessionRequest;
        s.store.sessions.insert(
          newSession({
            id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
            channel: 'dev',
            request,
            now: '2026-01-01T00:00:00.000Z',
            newId: () => `item${i}`,
          }),
        );
      }
    });

  it('in a channel without sessions answers its own empty page', async () => {
    seedDev(300);
    s.store.sessions.indexPendingSearches();
    const other = await s.get('/payments/v1/payment_sessions?search=example.com', { key: OTHER_KEY });
    expect({ status: other.status, body: other.body }).toEqual({
      status: 200,
      body: { payment_sessions: [], pagination: { current_page: 1, page_size: 30, count: 0, last_page: 1 } },
    });
    expect((await list('search=example.com')).pagination.count).toBe(304);
  });

  it("past a bound answers the list's 400, saying which bound and what to do", async () => {
    seedDev(MAX_SEARCH_MATCHES + 1);
    const broad = await s.get('/payments/v1/payment_sessions?search=example.com');
    expect({ status: broad.status, body: broad.body }).toEqual({
      status: 400,
      body: {
        error: 'InvalidRequestParameter',
        message: `search "example.com" matches more than ${MAX_SEARCH_MATCHES} sessions, the most the sandbox counts for one search: search for something longer or more specific.`,
      },
    });
    const long = await s.get(`/payments/v1/payment_sessions?search=${'a'.repeat(MAX_SEARCH_LENGTH + 1)}`);
    expect({ status: long.status, body: long.body }).toEqual({
      status: 400,
      body: {
        error: 'InvalidRequestParameter',
        message: `search must be at most ${MAX_SEARCH_LENGTH} characters in the sandbox.`,
      },
    });
    // A precise search, and another channel, are answered.
    expect(await listIds('search=buyer5000@')).toHaveLength(1);
    expect((await s.get('/payments/v1/payment_sessions?search=example.com', { key: OTHER_KEY })).status).toBe(200);
  });

  it('waits for a turn of its own: a health check that arrives with searches is answered before them', async () => {
    seedDev(200);
    await s.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = s.app.server.address() as AddressInfo;
    let accepted = 0;
    s.app.server.on('connection', () => accepted++);
    const sockets = await Promise.all(
      Array.from(
        { length: 6 },
        () =>
          new Promise<Socket>((resolve) => {
            const socket = connect(port, '127.0.0.1', () => resolve(socket));
          }),
      ),
    );
    // The server has accepted all six, so it reads them all at its next look at its sockets.
    while (accepted < 6) await new Promise((resolve) => setImmediate(resolve));
    const answered: string[] = [];
    const names = ['search 1', 'search 2', 'search 3', 'search 4', 'search 5', 'health'];
    const answers = sockets.map(
      (socket, i) =>
        new Promise<void>((resolve) =>
          socket.once('data', () => {
            answered.push(names[i]!);
            socket.destroy();
            resolve();
          }),
        ),
    );
    // Written in one go: the server reads all six requests before it runs any search.
    for (const [i, socket] of sockets.entries()) {
      socket.write(
        i < 5
          ? `GET /payments/v1/payment_sessions?search=example.com HTTP/1.1\r\nHost: 127.0.0.1\r\nx-service-api-key: ${DEV_KEY}\r\n\r\n`
          : 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
      );
    }
    await Promise.all(answers);
    expect(answered[0]).toBe('health');
    expect(answered.slice(1)).toEqual(names.slice(0, 5));
  });
});
