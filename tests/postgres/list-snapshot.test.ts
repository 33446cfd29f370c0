// A list page answered afresh reads its count and its items in one snapshot, though the request
// runs with no transaction around it (a single-read operation, http/app.ts): a session created by
// another sandbox between the two reads is in neither, and the page's total matches its items.
import { afterEach, describe, expect, it } from 'vitest';
import { buildSandbox } from '../../src/sandbox/http/app.js';
import { createPostgresStore, type PostgresStore } from '../../src/sandbox/store/postgres/index.js';
import { sessionRequest } from '../../testkit/sandbox.js';
import { testDatabase } from '../support/postgres-database.js';

const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const HEADERS = { 'x-service-api-key': 'sandbox-dev-key' };

async function sandboxOn(url: string) {
  const store: PostgresStore = await createPostgresStore(url);
  const app = buildSandbox({ store });
  closers.push(
    () => app.close(),
    () => store.close(),
  );
  const create = async (key: string) => {
    const answer = await app.inject({
      method: 'POST',
      url: '/payments/v1/create_payment_session',
      headers: HEADERS,
      payload: { ...sessionRequest(), idempotency_key: key },
    });
    expect(answer.statusCode).toBe(200);
  };
  return { store, app, create };
}

describe('a list page on PostgreSQL', () => {
  it("reads its count and its items in one snapshot: another sandbox's create between them is in neither", async () => {
    const url = await testDatabase('list_snapshot');
    const here = await sandboxOn(url);
    const there = await sandboxOn(url);
    for (const n of [1, 2, 3]) await here.create(`before-${n}`);
    // Each count the list sends is followed, before its answer reaches the list, by a create
    // through the other sandbox: a page read statement by statement would count 3 and show 4 (the default list counts from
    // session_counts, a filtered one with count(*)).
    let landed = 0;
    const q = here.store.q as unknown as Record<
      string,
      (text: string, params?: readonly unknown[]) => Promise<unknown>
    >;
    for (const method of ['all', 'one', 'value', 'column']) {
      const send = q[method]!.bind(q);
      q[method] = async (text, params) => {
        const read = await send(text, params);
        if (/session_counts|count\(/i.test(text)) await there.create(`between-${++landed}`);
        return read;
      };
    }
    const page = await here.app.inject({
      method: 'GET',
      url: '/payments/v1/payment_sessions?page_size=100',
      headers: HEADERS,
    });
    expect(page.statusCode).toBe(200);
    const { payment_sessions: items, pagination } = page.json() as {
      payment_sessions: unknown[];
      pagination: { count: number };
    };
    expect(landed).toBeGreaterThan(0);
    expect(items).toHaveLength(pagination.count);
    expect(items).toHaveLength(3);
  });
});
