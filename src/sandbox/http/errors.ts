// The one error path of the sandbox. Handlers, hooks and the router throw; this module turns every
// error into the contract's {error, message} and its status: the domain's refusals, the HTTP
// layer's own (401, 404, 405, 501, injected faults), fastify's (matched by its exported error
// classes), a database that cannot serve now (503 with Retry-After: store/unavailable.ts) and
// anything unexpected (500, logged, never a stack in the body).
import { errorCodes, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { Refusal, type RefusalKind } from '../domain/errors.js';
import { BODY_LIMIT_BYTES } from './body-parsing.js';
import { isStoreUnavailable } from '../store/unavailable.js';
import type { ValidationCodes } from './error-codes.js';

/** A refusal whose status the HTTP layer decides: no key, no route, a wrong method, no handler, a fault. */
export class HttpRefusal extends Error {
  override readonly name = 'HttpRefusal';
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 429 | 500 | 501 | 503,
    readonly code: string,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

export const errorBody = (code: string, message: string) => ({ error: code, message });

/** A URL as echoed in an error message: never more than a line. */
const shown = (url: string) => (url.length > 200 ? `${url.slice(0, 200)}…` : url);

export const unauthorized = (keyGiven: boolean, header: string) =>
  new HttpRefusal(
    401,
    'Unauthorized',
    keyGiven ? `The ${header} is not a known sandbox key.` : `The ${header} header is missing.`,
  );
/** A route of the operator's (the admin helpers, /metrics) asked without an admin key that serves. */
export const adminUnauthorized = (keyGiven: boolean) =>
  new HttpRefusal(
    401,
    'Unauthorized',
    keyGiven
      ? 'The Authorization header does not carry an admin key that serves.'
      : 'This route needs an admin key, as Authorization: Bearer sk_sandbox_…; an operator makes one with ' +
          'hsa-fsa-sandbox keys create --admin.',
    { 'www-authenticate': 'Bearer realm="sandbox admin"' },
  );
export const routeNotFound = (method: string, url: string, why = '') =>
  new HttpRefusal(404, 'NotFound', `No route ${method} ${shown(url)}${why ? `: ${why}` : ''}.`);
export const methodNotAllowed = (method: string, allowed: readonly string[]) =>
  new HttpRefusal(405, 'MethodNotAllowed', `${method} is not allowed here; use ${allowed.join(' or ')}.`, {
    allow: allowed.join(', '),
  });
export const notImplemented = (operationId: string) =>
  new HttpRefusal(501, 'NotImplemented', `${operationId} is not implemented in the sandbox yet.`);
/** An armed fault (POST /sandbox/v1/faults): its 400 code, the shared 500 ServerError, or 501 NotImplemented. */
export const injectedFault = (status: 400 | 500 | 501, error: string) =>
  new HttpRefusal(
    status,
    error,
    status === 501
      ? 'An injected sandbox fault: the operation is not implemented.'
      : error === 'ServerError'
        ? 'An injected sandbox fault: the service failed. Retry with the same idempotency key.'
        : `An injected sandbox fault: the operation answers ${error}.`,
  );

/**
 * Seconds a client is told to wait when the database cannot serve (Retry-After): a restarted
 * server takes about as long to accept connections again, and the next request finds out at once.
 */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/** The database is down, restarting, unreachable or too busy: the request was not applied, and may be retried. */
export const databaseUnavailable = () =>
  new HttpRefusal(
    503,
    'ServiceUnavailable',
    "The sandbox's database cannot be reached right now; nothing of this request was applied. " +
      'Retry with the same idempotency key.',
    { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
  );

const STATUS_OF: Record<RefusalKind, 400 | 404 | 409 | 422> = {
  invalid: 400,
  not_found: 404,
  needs_customer_action: 422,
  conflict: 409,
};

/** What a route tells the error path about itself (its config). */
export interface RouteFacts {
  operationId?: string;
  codes?: ValidationCodes;
  /** False for an operation without a handler: 501, whatever else is wrong with the request. */
  implemented?: boolean;
  /** The route answers 405 with these methods allowed, whatever else is wrong with the request. */
  allowedMethods?: string[];
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers?: Readonly<Record<string, string>>;
}

const isFastifyError = (error: unknown, ...kinds: Array<new (...args: never[]) => Error>) =>
  kinds.some((kind) => error instanceof kind);

/** fastify's refusals of a request it could not read: the operation's own code for a malformed request. */
const UNREADABLE_REQUEST = [
  errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE,
  errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH,
  errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY,
  errorCodes.FST_ERR_CTP_INVALID_JSON_BODY,
  errorCodes.FST_ERR_ROUTE_MISSING_CONTENT_TYPE,
] as unknown as Array<new (...args: never[]) => Error>;

export function answerFor(error: unknown, request: FastifyRequest): Answer {
  if (error instanceof Refusal)
    return {
      status: STATUS_OF[error.kind],
      body: error.fields ? { ...error.fields } : errorBody(error.code, error.message),
    };
  if (error instanceof HttpRefusal)
    return { status: error.status, body: errorBody(error.code, error.message), headers: error.headers };
  const route = request.routeOptions.config as RouteFacts | undefined;
  // What the route is wins over how fastify failed to read the request.
  if (route?.implemented === false && route.operationId) return answerFor(notImplemented(route.operationId), request);
  if (route?.allowedMethods) return answerFor(methodNotAllowed(request.method, route.allowedMethods), request);
  if (isFastifyError(error, errorCodes.FST_ERR_BAD_URL as never))
    return answerFor(routeNotFound(request.method, request.url, 'the URL cannot be decoded'), request);
  // No route matched: whatever fastify then failed to read, the answer is that there is no route.
  if (request.is404) return answerFor(routeNotFound(request.method, request.url.split('?')[0]!), request);
  const invalid = route?.codes?.invalid;
  if (invalid && isFastifyError(error, errorCodes.FST_ERR_CTP_BODY_TOO_LARGE as never)) {
    return {
      status: 400,
      body: errorBody(invalid, `The request body exceeds the sandbox's ${BODY_LIMIT_BYTES / 1024} KiB limit.`),
    };
  }
  // The listed ones, and any other client error fastify raises while reading a request.
  const clientError =
    isFastifyError(error, ...UNREADABLE_REQUEST) || ((error as { statusCode?: number }).statusCode ?? 500) < 500;
  if (invalid && clientError)
    return { status: 400, body: errorBody(invalid, `The request is malformed: ${(error as Error).message}.`) };
  // Not a fault of the sandbox's: said in one warning line, without a stack.
  if (isStoreUnavailable(error)) {
    request.log.warn(`database unavailable: ${(error as Error).message}`);
    return answerFor(databaseUnavailable(), request);
  }
  request.log.error({ err: error }, 'unexpected sandbox error');
  return {
    status: 500,
    body: errorBody('ServerError', 'An internal error occurred in the sandbox. Retry with the same idempotency key.'),
  };
}

export function sendAnswer(reply: FastifyReply, { status, body, headers }: Answer) {
  return reply
    .code(status)
    .headers(headers ?? {})
    .send(body);
}

/** Routes the sandbox's errors, and its unknown routes, through answerFor. */
export function registerErrorPath(app: FastifyInstance): void {
  app.setErrorHandler(async (error, request, reply) => sendAnswer(reply, answerFor(error, request)));
  app.setNotFoundHandler(async (request) => {
    throw routeNotFound(request.method, request.url.split('?')[0]!);
  });
}

/** fastify's frameworkErrors option: errors before routing (an undecodable URL) take the same path. */
export function answerFrameworkError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
  void sendAnswer(reply, answerFor(error, request));
}
