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
 * A run of a key's characters long enough to be a random secret, with both cases and a digit: the
 * look of a managed key's random part (base64url), which balancers' ids (hex, UUIDs, plain words
 * and counters) do not have.
 */
const SECRET_LIKE = /[A-Za-z0-9_-]{16,}/g;
const looksSecret = (run: string) => /[a-z]/.test(run) && /[A-Z]/.test(run) && /\d/.test(run);

/**
 * Whether a request id may hold a key: the managed keys' prefix, a key set at start or the
 * request's own credential (or its random part), in any case, anywhere in it; or a run that looks
 * like a managed key's random part, which could be another channel's.
 */
function mayHoldKey(id: string, keys: Iterable<string>): boolean {
  const lower = id.toLowerCase();
  if (lower.includes(MANAGED_KEY_PREFIX)) return true;
  for (const key of keys) if (key !== '' && lower.includes(key.toLowerCase())) return true;
  return (id.match(SECRET_LIKE) ?? []).some(looksSecret);
}

/**
 * The request id a request is logged and answered with: the one it was sent with when that is sane
 * and cannot hold a key, else the sandbox's own. A client that sends a key in its request id (its
 * own, another channel's, any managed one) would otherwise have it written to every line of the
 * request: managed keys are of the same characters as a sane id.
 */
export function requestIdOf(headers: IncomingHttpHeaders, fixedKeys: ReadonlySet<string>): string {
  const given = headers[REQUEST_ID_HEADER];
  const credentials = [headers['x-service-api-key'], bearerToken(headers.authorization)].filter(
    (key): key is string => typeof key === 'string',
  );
  const ownSecrets = credentials.map((key) =>
    key.startsWith(MANAGED_KEY_PREFIX) ? key.slice(MANAGED_KEY_PREFIX.length) : key,
  );
  const sane =
    typeof given === 'string' &&
    SANE_REQUEST_ID.test(given) &&
    !mayHoldKey(given, [...fixedKeys, ...credentials, ...ownSecrets]);
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
