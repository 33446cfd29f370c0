// Careless and hostile input, as a partner's QA sends it, answered alike by the SQLite and the
// PostgreSQL sandbox: never a 500, the same status and the same answer (ids and times aside).
// PostgreSQL's text holds no NUL where SQLite's does, so the cases lean on NUL (\u0000) in every
// place a value reaches a column: keys, ids, names, skus.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sessionRequest } from '../../testkit/sandbox.js';
import { testDatabase } from '../support/postgres-database.js';
import { postgresSide, type Request, type Side, sqliteSide } from './differential-support.js';

let sides: Side[];
beforeAll(async () => {
  // One instant on both sides, as in the differential test, so that their times agree.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.parse('2026-03-02T09:00:00.000Z'));
  sides = [await sqliteSide(), await postgresSide(await testDatabase('hostile'))];
});
afterAll(async () => {
  await Promise.all(sides.map((side) => side.close()));
  vi.useRealTimers();
});

/** Each side's answers to `steps` (each built from the answers before it), normalised. */
async function answersOf(steps: Array<(answers: any[]) => Request>) {
  return Promise.all(
    sides.map(async (side) => {
      const answers: any[] = [];
      for (const step of steps) {
        const reply = await side.send(step(answers));
        answers.push({ status: reply.status, body: reply.body });
      }
      return answers.map((answer) => ({ status: answer.status, body: side.normalise(answer.body) }));
    }),
  );
}

async function expectAlike(steps: Array<(answers: any[]) => Request>): Promise<any[]> {
  const [sqlite, postgres] = await answersOf(steps);
  for (const answer of postgres!) expect(answer.status).toBeLessThan(500);
  expect(postgres).toEqual(sqlite);
  return sqlite!;
}

const NUL = 'a\u0000b';
const encoded = encodeURIComponent(NUL);
const tokenRequest = (overrides: Record<string, unknown>) => ({
  success_url: 'https://a.example/ok',
  failure_url: 'https://a.example/ko',
  ...overrides,
});
const catalogItem = (overrides: Record<string, unknown>) => ({
  sku: 'SKU-NUL',
  name: 'n',
  description: 'd',
  image_urls: [],
  url: 'https://shop.example/p',
  ...overrides,
});

describe('a NUL in what a write stores is kept as SQLite keeps it', () => {
  it('a customer name with a NUL makes a session, which a search finds as on SQLite', async () => {
    const answers = await expectAlike([
      () => ({
        method: 'POST',
        url: '/payments/v1/create_payment_session',
        body: sessionRequest({ customer_name: NUL }),
      }),
      () => ({ method: 'GET', url: `/payments/v1/payment_sessions?search=${encoded}` }),
      () => ({ method: 'GET', url: '/payments/v1/payment_sessions?search=A%00' }),
      () => ({ method: 'GET', url: '/payments/v1/payment_sessions?search=b' }),
    ]);
    expect(answers[0].status).toBe(200);
  });

  it('an idempotency key with a NUL makes one session, its retry the same one', async () => {
    const answers = await expectAlike([
      () => ({
        method: 'POST',
        url: '/payments/v1/create_payment_session',
        body: sessionRequest({ idempotency_key: NUL }),
      }),
      () => ({
        method: 'POST',
        url: '/payments/v1/create_payment_session',
        body: sessionRequest({ idempotency_key: NUL }),
      }),
      () => ({
        method: 'POST',
        url: '/payments/v1/create_payment_session',
        body: sessionRequest({ idempotency_key: 'a' }),
      }),
    ]);
    expect(answers[1].body.id).toBe(answers[0].body.id);
    expect(answers[2].body.id).not.toBe(answers[0].body.id);
  });

  it('an idempotency key with a NUL makes one provision request, its retry the same one', async () => {
    const answers = await expectAlike([
      () => ({ method: 'POST', url: '/api/v1/payment_tokens/create', body: tokenRequest({ idempotency_key: NUL }) }),
      () => ({ method: 'POST', url: '/api/v1/payment_tokens/create', body: tokenRequest({ idempotency_key: NUL }) }),
    ]);
    expect(answers[1].body).toEqual(answers[0].body);
  });

  it("a token whose customer name holds a NUL is found by a needle with one, as SQLite's instr() finds it", async () => {
    const answers = await expectAlike([
      () => ({
        method: 'POST',
        url: '/api/v1/payment_tokens/create',
        body: tokenRequest({ customer_name: NUL, customer_email: 'nul@shop.example' }),
      }),
      (a) => ({
        method: 'POST',
        url: `/sandbox/v1/provision_requests/${a[0].body.provision_token_request_id}/complete`,
        body: { letter: 'approved', lmn_expires_at: '2030-01-01' },
      }),
      () => ({ method: 'GET', url: `/api/v1/payment_tokens?name=${encoded}` }),
      () => ({ method: 'GET', url: '/api/v1/payment_tokens?name=%00' }),
      () => ({ method: 'GET', url: '/api/v1/payment_tokens?email=NUL@shop&name=A%00' }),
      () => ({ method: 'GET', url: '/api/v1/payment_tokens?name=b%00' }),
    ]);
    expect(answers.slice(2).map((answer) => answer.body.pagination.count)).toEqual([1, 1, 1, 0]);
  });

  it('a catalog item whose sku holds a NUL is created, found, updated and reviewed', async () => {
    await expectAlike([
      () => ({ method: 'POST', url: '/api/v1/product_catalog/items/create', body: catalogItem({ sku: NUL }) }),
      () => ({ method: 'POST', url: '/api/v1/product_catalog/items/detail', body: { sku: NUL } }),
      () => ({
        method: 'POST',
        url: '/api/v1/product_catalog/items/update',
        body: catalogItem({ sku: NUL, name: 'm' }),
      }),
      () => ({ method: 'POST', url: '/sandbox/v1/catalog/items/review', body: { sku: NUL, eligibility: 'eligible' } }),
    ]);
  });

  it('a catalog item whose name holds a NUL is reviewed', async () => {
    await expectAlike([
      () => ({
        method: 'POST',
        url: '/api/v1/product_catalog/items/create',
        body: catalogItem({ sku: 'SKU-N', name: NUL }),
      }),
      () => ({
        method: 'POST',
        url: '/sandbox/v1/catalog/items/review',
        body: { sku: 'SKU-N', eligibility: 'eligible' },
      }),
    ]);
  });
});

describe('an id with a NUL names nothing: 404, as on SQLite', () => {
  it.each([
    ['GET', `/v1/disputes/${encoded}`],
    ['POST', `/v1/disputes/${encoded}/accept`],
    ['GET', `/sandbox/v1/webhook_listeners/${encoded}/deliveries?wait=0`],
  ] as const)('%s %s', async (method, url) => {
    const [answer] = await expectAlike([() => ({ method, url, ...(method === 'POST' ? { body: {} } : {}) })]);
    expect(answer.status).toBe(404);
  });
});

describe('a text longer than a btree entry holds (about 2,700 bytes) is kept as SQLite keeps it', () => {
  // Random, so that PostgreSQL cannot compress it under the limit.
  const texts = new Map<string, string>();
  const long = (name: string) => {
    if (!texts.has(name)) texts.set(name, randomBytes(3_000).toString('base64url'));
    return texts.get(name)!;
  };

  it('a session with a long customer name and a long email, found by a search', async () => {
    await expectAlike([
      () => ({
        method: 'POST',
        url: '/payments/v1/create_payment_session',
        body: sessionRequest({ customer_name: long('n'), customer_email: `${long('e')}@example.com` }),
      }),
      () => ({ method: 'GET', url: `/payments/v1/payment_sessions?search=${long('n').slice(100, 110)}` }),
      () => ({ method: 'GET', url: '/payments/v1/payment_sessions?search=n1' }),
    ]);
  });

  it('a catalog item with a long sku, created, found and listed', async () => {
    await expectAlike([
      () => ({ method: 'POST', url: '/api/v1/product_catalog/items/create', body: catalogItem({ sku: long('s') }) }),
      () => ({ method: 'POST', url: '/api/v1/product_catalog/items/detail', body: { sku: long('s') } }),
      () => ({ method: 'POST', url: '/api/v1/product_catalog/items/create', body: catalogItem({ sku: long('s') }) }),
    ]);
  });
});
