// The log of a hosted sandbox (--log json): one JSON line per request, through fastify's pino, each
// bound to its request id (the balancer's `x-request-id` when it sends a sane one, else the
// sandbox's own, echoed in the answer), so that a warning or an error of the request carries it
// too. A line names the route's template, never the URL: a hosted page's URL is the capability that
// lets a customer in, and a query may carry a dashboard token. Headers are never logged; were one
// to be, pino blanks the keys and the authorization.
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { MANAGED_KEY_PREFIX } from '../domain/api-keys.js';
import { bearerToken } from './auth.js';

export const REQUEST_ID_HEADER = 'x-request-id';

/** A request id worth keeping from the balancer: short, and of characters a log reader can trust. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request id a request is logged and answered with: the one it was sent with when that is sane
 * and cannot be a key, else the sandbox's own. A client that sends a key as its request id (its
 * own, another channel's, any managed one) would otherwise have it written to every line of the
 * request: managed keys are of the same characters as a sane id.
 */
export function requestIdOf(headers: IncomingHttpHeaders, fixedKeys: ReadonlySet<string>): string {
  const given = headers[REQUEST_ID_HEADER];
  const sane =
    typeof given === 'string' &&
    SANE_REQUEST_ID.test(given) &&
    !given.startsWith(MANAGED_KEY_PREFIX) &&
    !fixedKeys.has(given) &&
    given !== headers['x-service-api-key'] &&
    given !== bearerToken(headers.authorization);
  return sane ? given : `req_${randomBytes(8).toString('hex')}`;
}

/** fastify's options for the JSON log; `fixedKeys` are the keys set at start (SANDBOX_API_KEYS). */
export function jsonLogOptions(
  fixedKeys: ReadonlySet<string>,
): Pick<FastifyServerOptions, 'logger' | 'disableRequestLogging' | 'genReqId' | 'requestIdLogLabel' | 'logController'> {
  // fastify's own lines name the URL: the hook below writes the line instead.
  const requestLogging = { disableRequestLogging: true, requestIdLogLabel: 'request_id' };
  return {
    logger: {
      level: 'info',
      redact: {
        paths: ['req.headers.authorization', 'req.headers["x-service-api-key"]', 'req.headers.cookie'],
        censor: '[redacted]',
      },
    },
    genReqId: (request) => requestIdOf(request.headers, fixedKeys),
    // A fastify that has a log controller warns on stderr, a line that is no JSON, for the options
    // it replaces; an earlier 5.x has only the options.
    ...(Fastify.LogController ? { logController: new Fastify.LogController(requestLogging) } : requestLogging),
  };
}

export function registerJsonLog(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? null,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        ...(request.channel ? { channel: request.channel } : {}),
      },
      'answered',
    );
    done();
  });
}
