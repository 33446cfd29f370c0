// /metrics, for Prometheus, behind an admin key (Authorization: Bearer, as Prometheus sends its
// `authorization` credentials), and the hook that counts every answered request by its route
// template: the URL itself would give a series per session id.
import type { FastifyInstance, onResponseHookHandler, RouteOptions } from 'fastify';
import type { SandboxMetrics } from '../metrics/sandbox-metrics.js';

/** The route of a request that matched none: one series for every unknown URL. */
const NO_ROUTE = 'none';

/**
 * The methods a route serves, as onRoute gives them: a path's 405 route takes every method, and
 * its own are those it names as allowed.
 */
export function servedMethods(route: RouteOptions): readonly string[] {
  const served = (route.config as { allowedMethods?: readonly string[] } | undefined)?.allowedMethods ?? route.method;
  return typeof served === 'string' ? [served] : served;
}

/**
 * Counts every answered request by its route template: a recorder per route, made as the route is
 * added (onRoute), so that a request reads no route options; one for requests no route matched.
 * Registered before the routes, which onRoute sees only as they are added.
 */
export function registerMetrics(app: FastifyInstance, metrics: SandboxMetrics): void {
  app.addHook('onRoute', (route) => {
    const record = metrics.route(route.url, servedMethods(route));
    const counted: onResponseHookHandler = (request, reply, done) => {
      record(request.method, reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
    const own = route.onResponse === undefined ? [] : [route.onResponse].flat();
    route.onResponse = [...own, counted];
  });
  const unrouted = metrics.route(NO_ROUTE, []);
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404) unrouted(request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  app.get('/metrics', { config: { requiresAdmin: true } }, async (_request, reply) =>
    reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
}
