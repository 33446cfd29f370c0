// The log of a hosted sandbox (--log json): one JSON line per request, through fastify's pino, each
// bound to its request id (the balancer's `x-request-id` when it sends a sane one, else the
// sandbox's own, echoed in the answer), so that a warning or an error of the request carries it
// too. A line names the route's template, never the URL: a hosted page's URL is the capability that
// lets a customer in, and a query may carry a dashboard token. Headers are never logged; were one
// to be, pino blanks the keys and the authorization.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';

/** A request id worth keeping from the balancer: short, and of characters a log reader can trust. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** fastify's options for the JSON log. */
export const jsonLogOptions = (): Pick<
  FastifyServerOptions,
  'logger' | 'disableRequestLogging' | 'genReqId' | 'requestIdLogLabel'
> => ({
  logger: {
    level: 'info',
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-service-api-key"]', 'req.headers.cookie'],
      censor: '[redacted]',
    },
  },
  // fastify's own lines name the URL: the hook below writes the line instead.
  disableRequestLogging: true,
  genReqId: (request) => {
    const given = request.headers[REQUEST_ID_HEADER];
    return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : `req_${randomBytes(8).toString('hex')}`;
  },
  requestIdLogLabel: 'request_id',
});

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
