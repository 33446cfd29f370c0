// /metrics, for Prometheus, behind an admin key (Authorization: Bearer, as Prometheus sends its
// `authorization` credentials), and the hook that counts every answered request by its route
// template: the URL itself would give a series per session id.
import type { FastifyInstance } from 'fastify';
import type { SandboxMetrics } from '../metrics/sandbox-metrics.js';

/** The route of a request that matched none: one series for every unknown URL. */
const NO_ROUTE = 'none';
/** The method of a request its route does not serve (a 405, a 404): one series for any of them. */
const OTHER_METHOD = 'other';

/**
 * The method a request is counted by: its route's own, or OTHER_METHOD. Node parses some thirty
 * methods (PROPFIND, MKCALENDAR…), and anyone, with no key, could otherwise add a series and a
 * histogram per route for each.
 */
export function countedMethod(method: string, served: string | readonly string[] | undefined): string {
  const methods = typeof served === 'string' ? [served] : (served ?? []);
  return methods.includes(method) ? method : OTHER_METHOD;
}

export function registerMetrics(app: FastifyInstance, metrics: SandboxMetrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    // A path's 405 route takes every method: the path's own are those it names as allowed.
    const { url, method, config } = request.routeOptions;
    const served = config.allowedMethods ?? method;
    metrics.request(url ?? NO_ROUTE, countedMethod(request.method, served), reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  app.get('/metrics', { config: { requiresAdmin: true } }, async (_request, reply) =>
    reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
}
