// /metrics (metrics/sandbox-metrics.ts, http/metrics-route.ts): behind an admin key; requests
// counted by route template, never by URL (no session id, no key becomes a label); the rate limit's
// refusals by channel; webhook attempts by outcome; the outbox's depth read as the scrape asks.
import { afterEach, describe, expect, it } from 'vitest';
import type { AttemptOutcome } from '../../src/sandbox/delivery/attempt.js';
import { startDispatcher } from '../../src/sandbox/delivery/dispatcher.js';
import { ADMIN_SCOPE } from '../../src/sandbox/domain/api-keys.js';
import { buildSandbox } from '../../src/sandbox/http/app.js';
import { createKey } from '../../src/sandbox/keys/manage.js';
import { sandboxMetrics } from '../../src/sandbox/metrics/sandbox-metrics.js';
import { openDatabase } from '../../src/sandbox/store/database.js';
import { createStore } from '../../src/sandbox/store/index.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';
import { sessionRequest } from '../../testkit/sandbox.js';
import { until } from '../../testkit/webhook-receiver.js';

const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function sandbox(rateLimit?: { perSecond: number; burst: number }) {
  const db = openDatabase(':memory:');
  const store = sqliteBackend(createStore(db));
  const metrics = sandboxMetrics(store);
  const app = buildSandbox({ store, metrics, ...(rateLimit ? { rateLimit } : {}) });
  closers.push(
    () => app.close(),
    () => db.close(),
  );
  const admin = `Bearer ${(await createKey(store, ADMIN_SCOPE)).key}`;
  const scrape = async () => {
    const response = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: admin } });
    expect(response.statusCode).toBe(200);
    return response.body;
  };
  const call = (method: string, url: string, key = 'sandbox-dev-key', payload?: object) =>
    app.inject({ method, url, headers: { 'x-service-api-key': key }, ...(payload ? { payload } : {}) });
  return { store, metrics, app, scrape, call };
}

describe('/metrics', () => {
  it("takes an admin key, and no channel's key", async () => {
    const { app } = await sandbox();
    expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const asChannel = await app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { 'x-service-api-key': 'sandbox-dev-key' },
    });
    expect(asChannel.statusCode).toBe(401);
  });

  it("is Prometheus' text format, with the process's own metrics", async () => {
    const { app, scrape } = await sandbox();
    const body = await scrape();
    const response = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer x' } });
    expect(response.statusCode).toBe(401);
    expect(body).toContain('# TYPE sandbox_http_requests_total counter');
    expect(body).toContain('sandbox_nodejs_eventloop_lag_seconds');
    // SQLite has no pool.
    expect(body).not.toMatch(/^sandbox_db_pool_connections\{/m);
  });

  it('counts requests by route template, method and status, never by URL or key', async () => {
    const { call, scrape } = await sandbox();
    const created = await call('POST', '/payments/v1/create_payment_session', 'sandbox-dev-key', sessionRequest());
    const id = (created.json() as { id: string }).id;
    await call('GET', `/payments/v1/payment_session/${id}`, 'sandbox-other-key');
    await call('GET', '/no/such/route');
    const body = await scrape();
    expect(body).toContain(
      'sandbox_http_requests_total{route="/payments/v1/create_payment_session",method="POST",status="200"} 1',
    );
    expect(body).toContain(
      'sandbox_http_requests_total{route="/payments/v1/payment_session/:business_id",method="GET",status="404"} 1',
    );
    expect(body).toContain('sandbox_http_requests_total{route="none",method="other",status="404"} 1');
    expect(body).toMatch(
      /sandbox_http_request_duration_seconds_count\{route="\/payments\/v1\/create_payment_session",method="POST"\} 1/,
    );
    for (const secret of [id, 'sandbox-dev-key', 'sandbox-other-key', 'sk_sandbox_'])
      expect(body).not.toContain(secret);
  });

  it('counts a method its route does not serve as other: no key adds a series per method Node parses', async () => {
    const { call, scrape } = await sandbox();
    for (const method of ['PROPFIND', 'MKCALENDAR', 'QUERY', 'PURGE', 'PUT', 'DELETE']) {
      await call(method, '/payments/v1/payment_sessions');
      await call(method, '/no/such/route');
    }
    const body = await scrape();
    const series = body.split('\n').filter((line) => line.startsWith('sandbox_http_requests_total{'));
    expect(series).toEqual([
      'sandbox_http_requests_total{route="/payments/v1/payment_sessions",method="other",status="405"} 6',
      'sandbox_http_requests_total{route="none",method="other",status="404"} 6',
    ]);
  });

  it("counts the rate limit's refusals by channel", async () => {
    const { call, scrape } = await sandbox({ perSecond: 1, burst: 1 });
    for (let i = 0; i < 3; i++) await call('GET', '/payments/v1/payment_sessions');
    expect(await scrape()).toContain('sandbox_rate_limited_requests_total{channel="dev"} 2');
  });

  it("reads the outbox's depth as it is scraped, and counts each attempt by outcome", async () => {
    const { call, scrape, store, metrics } = await sandbox();
    await call('POST', '/sandbox/v1/webhook_endpoints', 'sandbox-dev-key', {
      url: 'http://127.0.0.1:9/hooks',
      secret: 'whsec_test_secret',
    });
    const created = await call('POST', '/payments/v1/create_payment_session', 'sandbox-dev-key', sessionRequest());
    await call('POST', `/payments/v1/payment_session/${(created.json() as { id: string }).id}/cancel`);
    expect(await scrape()).toContain('sandbox_outbox_pending_deliveries 1');
    const refused: AttemptOutcome = {
      status: 500,
      response: { text: '', truncated: false, body_bytes: 0 },
      error: null,
      latencyMs: 1,
    };
    const dispatcher = startDispatcher(store, {
      send: async () => refused,
      onAttempt: metrics.attempt,
      tickMs: 60_000,
    });
    closers.unshift(() => dispatcher.stop());
    await until(async () => (await scrape()).includes('sandbox_webhook_attempts_total{outcome="retry"} 1'));
    expect(await scrape()).toContain('sandbox_outbox_pending_deliveries 1');
  });
});
