// CORS for a frontend on another origin calling the sandbox from the browser, as Prism allows:
// preflights (OPTIONS with Access-Control-Request-Method) are answered before the key check, since
// a browser never sends credentials on a preflight, and every answer carries the CORS headers. A
// preflight allows the path's own methods and the headers the documents declare for requests,
// never simply what it asked for. The hosted pages take the CORS header off (checkout-routes.ts).
import type { FastifyInstance } from 'fastify';

/** `*`, or one origin as a browser sends it (scheme, host, port): anything else cannot be a header. */
export function checkCorsOrigin(origin: string): void {
  const isOrigin = (() => {
    try {
      return new URL(origin).origin === origin;
    } catch {
      return false;
    }
  })();
  if (origin !== '*' && !(isOrigin && /^[\x21-\x7e]+$/.test(origin))) {
    throw new Error(`--cors-origin must be * or an origin such as http://localhost:5173, not ${JSON.stringify(origin)}`);
  }
}

/** `requestHeaders`: the headers the API's requests carry (document-facts.ts). */
export function registerCors(app: FastifyInstance, origin: string, requestHeaders: readonly string[]): void {
  const allowedHeaders = requestHeaders.join(', ');
  // Registered before auth: a preflight ends here with 204.
  // Callback-style hooks on every request: no promise per request and hook. A preflight is
  // answered here, and then done is not called.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.method !== 'OPTIONS' || request.headers['access-control-request-method'] === undefined) return done();
    // Only the API's paths: an unknown path is not found, preflight or not.
    if (request.routeOptions.config?.requiresKey !== true) return done();
    // A preflight matches the path's 405 route (OPTIONS is no operation), which knows the path's methods.
    reply
      .code(204)
      .header('access-control-allow-methods', (request.routeOptions.config.allowedMethods ?? []).join(', '))
      .header('access-control-allow-headers', allowedHeaders)
      .header('access-control-max-age', '600')
      .send();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('access-control-allow-origin', origin === '*' ? '*' : origin);
    if (origin !== '*') reply.header('vary', 'Origin');
    reply.header('access-control-expose-headers', 'allow, content-type');
    done(null, payload);
  });
}
