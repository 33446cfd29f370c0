// Requests are counted by a recorder made per route as the route is added (http/metrics-route.ts,
// metrics/sandbox-metrics.ts): every route of the app must have one, its own hooks must still run,
// and each series must count what it names, by method, status and time.
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildSandbox } from '../../src/sandbox/http/app.js';
import { registerMetrics, servedMethods } from '../../src/sandbox/http/metrics-route.js';
import { OTHER_METHOD, sandboxMetrics } from '../../src/sandbox/metrics/sandbox-metrics.js';
import { openDatabase } from '../../src/sandbox/store/database.js';
import { createStore } from '../../src/sandbox/store/index.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';

const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function memoryStore() {
  const db = openDatabase(':memory:');
  closers.push(() => db.close());
  return sqliteBackend(createStore(db));
}

/** The requests counted series of a scrape, as its lines. */
async function requestSeries(metrics: ReturnType<typeof sandboxMetrics>): Promise<string[]> {
  const text = await metrics.registry.getSingleMetricAsString('sandbox_http_requests_total');
  return text.split('\n').filter((line) => line.startsWith('sandbox_http_requests_total{'));
}

describe('the metrics recorder of each route', () => {
  it('names the methods a route serves: its own, or those a 405 route names as allowed', () => {
    expect(servedMethods({ method: 'GET', url: '/a', handler: () => {} })).toEqual(['GET']);
    expect(servedMethods({ method: ['GET', 'HEAD'], url: '/a', handler: () => {} })).toEqual(['GET', 'HEAD']);
    expect(
      servedMethods({
        method: ['PUT', 'DELETE'],
        url: '/a',
        handler: () => {},
        config: { allowedMethods: ['POST'] },
      }),
    ).toEqual(['POST']);
  });

  it("counts each route's requests by method and status, a method it does not serve as other, and keeps the route's own hooks", async () => {
    const metrics = sandboxMetrics(memoryStore());
    const app = Fastify();
    closers.push(() => app.close());
    registerMetrics(app, metrics);
    const ownHook: string[] = [];
    app.get(
      '/items/:id',
      {
        onResponse: (request, _reply, done) => {
          ownHook.push(`${request.method} ${request.url}`);
          done();
        },
      },
      async (request, reply) =>
        (request.params as { id: string }).id === 'gone' ? reply.code(410).send({}) : { ok: true },
    );
    app.route({
      method: ['PUT', 'PATCH'],
      url: '/items',
      config: { allowedMethods: ['POST'] },
      handler: async (_request, reply) => reply.code(405).send({}),
    });
    for (const url of ['/items/1', '/items/2', '/items/gone']) await app.inject({ method: 'GET', url });
    await app.inject({ method: 'HEAD', url: '/items/1' });
    await app.inject({ method: 'PUT', url: '/items' });
    await app.inject({ method: 'PATCH', url: '/items' });
    await app.inject({ method: 'GET', url: '/nowhere/1' });
    await app.inject({ method: 'DELETE', url: '/nowhere/2' });
    expect((await requestSeries(metrics)).sort()).toEqual([
      'sandbox_http_requests_total{route="/items",method="other",status="405"} 2',
      'sandbox_http_requests_total{route="/items/:id",method="GET",status="200"} 2',
      'sandbox_http_requests_total{route="/items/:id",method="GET",status="410"} 1',
      'sandbox_http_requests_total{route="/items/:id",method="HEAD",status="200"} 1',
      `sandbox_http_requests_total{route="none",method="${OTHER_METHOD}",status="404"} 2`,
    ]);
    expect(ownHook).toEqual(['GET /items/1', 'GET /items/2', 'GET /items/gone', 'HEAD /items/1']);
    const latency = await metrics.registry.getSingleMetricAsString('sandbox_http_request_duration_seconds');
    expect(latency).toContain('sandbox_http_request_duration_seconds_count{route="/items/:id",method="GET"} 3');
    expect(latency).toContain('sandbox_http_request_duration_seconds_count{route="none",method="other"} 2');
    expect(latency).toMatch(/sandbox_http_request_duration_seconds_sum\{route="\/items\/:id",method="GET"\} 0\.\d+/);
  });

  it('makes a recorder for every route of the sandbox, the API, its helpers, pages and probes among them', async () => {
    const metrics = sandboxMetrics(memoryStore());
    const templates = new Set<string>();
    const route = metrics.route;
    metrics.route = (template, served) => {
      for (const method of served) templates.add(`${method} ${template}`);
      return route(template, served);
    };
    const app = buildSandbox({ store: memoryStore(), metrics });
    closers.push(() => app.close());
    await app.ready();
    for (const expected of [
      'GET /health',
      'GET /ready',
      'GET /metrics',
      'GET /payments/v1/payment_sessions',
      'GET /payments/v1/payment_session/:business_id',
      'POST /payments/v1/create_payment_session',
      'HEAD /payments/v1/payment_sessions',
    ])
      expect(templates, expected).toContain(expected);
    const answer = await app.inject({
      method: 'GET',
      url: '/payments/v1/payment_sessions',
      headers: { 'x-service-api-key': 'sandbox-dev-key' },
    });
    expect(answer.statusCode).toBe(200);
    expect(await requestSeries(metrics)).toEqual([
      'sandbox_http_requests_total{route="/payments/v1/payment_sessions",method="GET",status="200"} 1',
    ]);
  });
});
