// CORS for a frontend on another origin calling the sandbox from the browser (by default one served
// from this machine; see LOOPBACK_ORIGINS):
// preflights (OPTIONS with Access-Control-Request-Method) are answered before the key check, since
// a browser never sends credentials on a preflight, and every answer carries the CORS headers. A
// preflight allows the path's own methods and the headers the documents declare for requests,
// never simply what it asked for. The hosted pages take the CORS header off (checkout-routes.ts).
import type { FastifyInstance } from 'fastify';
import { isIPv4 } from 'node:net';

/**
 * Which pages may call the API from a browser: `loopback` (the default) answers any page served
 * from this machine (localhost, 127.0.0.0/8, [::1], any port) and no other; `*` any page; or one
 * origin. The development keys are published, so under `*` any website a developer opens could
 * drive their sandbox (complete a checkout, read the sessions) with them.
 */
export const LOOPBACK_ORIGINS = 'loopback';

/**
 * A page served from this machine, its origin as a browser writes it: http(s), localhost, 127.0.0.0/8 or [::1], any
 * port.
 */
function isLoopbackOrigin(origin: string): boolean {
  // The URL parser refuses an octet over 255 and a port over 65535; a browser's origin is already in the form it gives
  // back.
  const url = URL.parse(origin);
  if (url === null || url.origin !== origin || (url.protocol !== 'http:' && url.protocol !== 'https:')) return false;
  return (
    url.hostname === 'localhost' ||
    url.hostname === '[::1]' ||
    (isIPv4(url.hostname) && url.hostname.startsWith('127.'))
  );
}

/** The Access-Control-Allow-Origin for a request from `requestOrigin`, or undefined for none. */
export function allowedOrigin(policy: string, requestOrigin: string | undefined): string | undefined {
  if (policy !== LOOPBACK_ORIGINS) return policy;
  return requestOrigin !== undefined && isLoopbackOrigin(requestOrigin) ? requestOrigin : undefined;
}

/** `loopback`, `*`, or one origin as a browser sends it (scheme, host, port): anything else cannot be a header. */
export function checkCorsOrigin(origin: string): void {
  if (origin === LOOPBACK_ORIGINS) return;
  // An origin is what the URL parser gives back for it: ASCII (punycode), no path, no default port.
  if (origin !== '*' && URL.parse(origin)?.origin !== origin) {
    throw new Error(
      `--cors-origin must be *, loopback or an origin such as https://shop.example, not ${JSON.stringify(origin)}`,
    );
  }
}

/**
 * The answer's headers a page may read besides the safelisted ones: the methods of a 405, the type,
 * when to retry a 429 or a 503 and the rate limit's state, and the request id to quote in a report.
 */
export const EXPOSED_HEADERS = 'allow, content-type, retry-after, ratelimit, ratelimit-policy, x-request-id';

/** `requestHeaders`: the headers the API's requests carry (document-facts.ts). */
export function registerCors(app: FastifyInstance, origin: string, requestHeaders: readonly string[]): void {
  const allowedHeaders = requestHeaders.join(', ');
  // Registered before auth: a preflight ends here with 204.
  // Callback-style hooks on every request: no promise per request and hook. A preflight is
  // answered here, and then done is not called.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.method !== 'OPTIONS' || request.headers['access-control-request-method'] === undefined) return done();
    // Only the API's paths: an unknown path is not found, preflight or not.
    const { config } = request.routeOptions;
    if (config.requiresKey !== true && config.requiresAdmin !== true) return done();
    // A preflight matches the path's 405 route (OPTIONS is no operation), which knows the path's methods.
    reply
      .code(204)
      .header('access-control-allow-methods', (request.routeOptions.config.allowedMethods ?? []).join(', '))
      .header('access-control-allow-headers', allowedHeaders)
      .header('access-control-max-age', '600')
      .send();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    const allowed = allowedOrigin(origin, request.headers.origin);
    if (allowed !== undefined)
      reply.header('access-control-allow-origin', allowed).header('access-control-expose-headers', EXPOSED_HEADERS);
    if (origin !== '*') reply.header('vary', 'Origin');
    done(null, payload);
  });
}
