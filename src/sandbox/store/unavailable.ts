// Whether an error means the database could not serve the request right now (a server that is
// down, restarting, unreachable or too busy), as opposed to a fault of the request or of the
// sandbox. The HTTP layer answers the first with 503 and Retry-After (http/errors.ts): the same
// request, retried with the same idempotency key once the database is back, is served, since a
// transaction cut off is rolled back whole. Recognised by the codes the driver and the server give,
// never by the backend that threw, so that the HTTP layer needs no knowledge of either.

/** Thrown by a store that gave up waiting for its database (a write queue that did not move). */
export class StoreUnavailable extends Error {
  override readonly name = 'StoreUnavailable';
}

/**
 * PostgreSQL's SQLSTATEs of a server that cannot serve now: the connection exceptions (class 08),
 * too many connections, a statement cancelled by statement_timeout, a lock not available (55P03),
 * a session ended for idling in its transaction, and the server shutting down, crashed or starting
 * (57P01–57P03).
 */
const UNAVAILABLE_STATES = new Set(['53300', '57014', '25P03', '57P01', '57P02', '57P03', '55P03']);

/** The socket's errors of a server that is not there, or went away. */
const UNREACHABLE_SOCKET = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * node-postgres' own errors, which carry no code: a connection lost or never made, and a pool
 * whose connections were all busy past its connection timeout.
 */
const DRIVER_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
  /^Query read timeout$/,
];

/** True when `error`, or an error it was caused by, says the database cannot serve now. */
export function isStoreUnavailable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (cause instanceof StoreUnavailable) return true;
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_STATES.has(code) || code.startsWith('08'))) return true;
    if (typeof code === 'string' && UNREACHABLE_SOCKET.has(code)) return true;
    if (DRIVER_MESSAGES.some((pattern) => pattern.test(cause.message))) return true;
  }
  return false;
}
