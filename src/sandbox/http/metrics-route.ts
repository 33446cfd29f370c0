// /metrics, for Prometheus, behind an admin key (Authorization: Bearer, as Prometheus sends its
// `authorization` credentials), and the hook that counts every answered request by its route
// template: the URL itself would give a series per session id.
import type { FastifyInstance } from 'fastify';
import type { SandboxMetrics } from '../metrics/sandbox-metrics.js';

/** The route of a request that matched none: one series for every unknown URL. */
const NO_ROUTE = 'none';

export function registerMetrics(app: FastifyInstance, metrics: SandboxMetrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.request(request.routeOptions.url ?? NO_ROUTE, request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  app.get('/metrics', { config: { requiresAdmin: true } }, async (_request, reply) =>
    reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
}
