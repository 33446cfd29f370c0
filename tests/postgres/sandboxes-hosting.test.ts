// What an operator of a hosted sandbox relies on, with three sandbox processes on one PostgreSQL
// database: keys made, rotated and revoked through any sandbox are served, or refused, by every
// other from its next request; a key rotated while its client keeps calling through all three
// refuses none of its requests; the rate limit is the key's across the sandboxes, not each
// process's; and a sandbox told to stop answers what it had, gives back the webhook delivery it
// could not finish, and exits, so that another sends it at once rather than after the lease.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_SCOPE } from '../../src/sandbox/domain/api-keys.js';
import { createKey } from '../../src/sandbox/keys/manage.js';
import { createPostgresStore } from '../../src/sandbox/store/postgres/index.js';
import { startSandboxProcess } from '../../testkit/sandbox-process.js';
import { type SandboxGroup, startSandboxProcesses } from '../../testkit/sandbox-processes.js';
import { startReceiver, until } from '../../testkit/webhook-receiver.js';
import { testDatabase } from '../support/postgres-database.js';
import { call, createSession } from './sandboxes-support.js';

const KEYS = '/sandbox/v1/admin/api_keys';
const LIST = '/payments/v1/payment_sessions?limit=1';

/** An admin key made on the database itself, as `hsa-fsa-sandbox keys create --admin` makes the first. */
async function adminKey(url: string): Promise<Record<string, string>> {
  const store = await createPostgresStore(url);
  try {
    const made = await store.transaction(() => createKey(store, ADMIN_SCOPE));
    return { authorization: `Bearer ${made.key}` };
  } finally {
    await store.close();
  }
}

let url: string;
let group: SandboxGroup;
let admin: Record<string, string>;
beforeAll(async () => {
  url = await testDatabase('hosting');
  group = await startSandboxProcesses(3, url, { timeoutMs: 60_000 });
  admin = await adminKey(url);
});
afterAll(async () => {
  await group?.stop();
});

const asKey = (key: string) => ({ headers: { 'x-service-api-key': key } });

describe('keys managed through any sandbox', () => {
  it('a key made through one is served by the others at once; revoked through another, it is refused by all at once', async () => {
    const made = await call(group.at(0), 'POST', KEYS, { body: { channel: 'partner-a' }, headers: admin });
    expect(made.status).toBe(200);
    for (const sandbox of group.sandboxes)
      expect((await call(sandbox, 'GET', LIST, asKey(made.body.key))).status).toBe(200);
    const revoked = await call(group.at(1), 'POST', `${KEYS}/${made.body.id}/revoke`, { headers: admin });
    expect(revoked.body.state).toBe('revoked');
    for (const sandbox of group.sandboxes)
      expect((await call(sandbox, 'GET', LIST, asKey(made.body.key))).status).toBe(401);
  });

  it('a key rotated while its client keeps calling through all three refuses none of its requests', async () => {
    const made = await call(group.at(0), 'POST', KEYS, { body: { channel: 'partner-b' }, headers: admin });
    let key: string = made.body.key;
    const statuses: number[] = [];
    let rotated = false;
    // The client: a request every few milliseconds, round-robin, with the key it holds.
    const client = (async () => {
      for (let i = 0; statuses.length < 150; i++) {
        statuses.push((await call(group.at(i), 'GET', LIST, asKey(key))).status);
        if (rotated && statuses.length > 100) break;
      }
    })();
    await until(() => statuses.length >= 30);
    const rotation = await call(group.at(2), 'POST', `${KEYS}/${made.body.id}/rotate`, {
      body: { overlap_seconds: 60 },
      headers: admin,
    });
    rotated = true;
    await until(() => statuses.length >= 60);
    // The client moves to the new key, as its operator would, while the old one still serves.
    key = rotation.body.key.key;
    await client;
    console.log(
      `rotation under load: ${statuses.length} requests through three sandboxes, ${statuses.filter((s) => s !== 200).length} refused`,
    );
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });
});

describe('metrics of a sandbox on PostgreSQL', () => {
  it("give its pool's use and the outbox's depth, to the admin key, each sandbox its own requests", async () => {
    await call(group.at(0), 'GET', LIST);
    const scrape = await fetch(`${group.at(0).baseUrl}/metrics`, { headers: admin });
    expect(scrape.status).toBe(200);
    const body = await scrape.text();
    expect(body).toMatch(/^sandbox_db_pool_connections\{state="open"\} [1-9]\d*$/m);
    // Idle, nothing waits for a connection: not even the scrape's own read of the outbox.
    expect(body).toMatch(/^sandbox_db_pool_connections\{state="waiting"\} 0$/m);
    expect(body).toMatch(/^sandbox_outbox_pending_deliveries \d+$/m);
    expect(body).toContain(
      'sandbox_http_requests_total{route="/payments/v1/payment_sessions",method="GET",status="200"}',
    );
  });
});

describe('the rate limit across sandboxes', () => {
  it("is the key's, not each process's: three sandboxes together let its burst through once", async () => {
    const limited = await startSandboxProcesses(3, await testDatabase('hosting_limit'), {
      timeoutMs: 60_000,
      rateLimit: '1/30',
    });
    try {
      const started = performance.now();
      const statuses: number[] = [];
      for (let i = 0; i < 90; i++)
        statuses.push((await call(limited.at(i), 'GET', LIST, { undocumented: true })).status);
      const seconds = (performance.now() - started) / 1000;
      const allowed = statuses.filter((status) => status === 200).length;
      // Never more than the burst and what the rate added meanwhile, whichever sandbox answered.
      expect(allowed).toBeLessThanOrEqual(30 + Math.ceil(seconds));
      expect(statuses.filter((status) => ![200, 429].includes(status))).toEqual([]);
      const refused = await call(limited.at(0), 'GET', LIST, { undocumented: true });
      expect(refused.status).toBe(429);
      expect(refused.body.error).toBe('TooManyRequests');
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(refused.headers.get('ratelimit-policy')).toBe('"sandbox";q=30;w=30');
    } finally {
      await limited.stop();
    }
  });
});

describe('a sandbox told to stop', () => {
  it('gives back the delivery it could not finish: its lease is ended as it exits, for another sandbox to send at once', async () => {
    const db = await testDatabase('hosting_stop');
    // The first attempt is never answered; the next is.
    const receiver = await startReceiver({
      secret: 'whsec_stop_test_secret',
      answer: (n) => (n === 0 ? 'hang' : 'ok'),
    });
    const first = await startSandboxProcess({ db, timeoutMs: 60_000 });
    const reader = new pg.Client({ connectionString: db });
    await reader.connect();
    try {
      const endpoint = await call(first, 'POST', '/sandbox/v1/webhook_endpoints', {
        body: { url: receiver.url, secret: 'whsec_stop_test_secret' },
      });
      expect(endpoint.status).toBe(200);
      const id = await createSession(first);
      await call(first, 'POST', `/payments/v1/payment_session/${id}/cancel`);
      await until(() => receiver.arrived.length === 1, 10_000, 'the first attempt');
      const leased = await reader.query("SELECT lease_until FROM deliveries WHERE status = 'pending'");
      expect(leased.rows.map((row) => row.lease_until !== null)).toEqual([true]);
      await first.stop();
      expect(await first.exitCode).toBe(0);
      // Given back as it stopped: still pending, and leased to nobody, far inside the 30 s lease.
      const after = await reader.query("SELECT lease_until FROM deliveries WHERE status = 'pending'");
      expect(after.rows.map((row) => row.lease_until)).toEqual([null]);
      const second = await startSandboxProcess({ db, timeoutMs: 60_000 });
      try {
        await until(() => receiver.accepted.length === 1, 10_000, 'the delivery through the second sandbox');
        expect(receiver.accepted[0]!.raw).toBe(receiver.arrived[0]);
      } finally {
        await second.stop();
      }
    } finally {
      await reader.end();
      await receiver.close();
    }
  });
});
