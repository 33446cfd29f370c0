// Requests the router never sees, or sees without what HTTP/1.1 requires: the HTTP parser refused
// them (headers over the limit, a malformed request line, a timeout), Node would answer them itself
// with an empty body (an Expect it cannot meet, a missing Host), or they ask for a tunnel (CONNECT).
// They still get the {error, message} shape (SandboxError, openapi/sandbox.yaml), and
// `Connection: close`, because the connection cannot safely carry another request.
import { METHODS, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { DELIVERY_HEADER } from '../delivery/attempt.js';
import type { FastifyInstance } from 'fastify';
import { LOOPBACK_ORIGINS } from './cors.js';
import { errorBody, HttpRefusal } from './errors.js';

/** The sandbox's codes for refusals outside any route (declared in openapi/sandbox.yaml). */
export const TRANSPORT_ERRORS = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    error: 'RequestHeaderFieldsTooLarge',
    message: 'The request headers exceed the sandbox limit of 16 KiB.',
  },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, error: 'RequestTimeout', message: 'The request was not received in time.' },
  default: { status: 400, error: 'MalformedRequest', message: 'The request is not valid HTTP/1.1.' },
  missingHost: { status: 400, error: 'MalformedRequest', message: 'An HTTP/1.1 request needs a Host header.' },
  manyHosts: {
    status: 400,
    error: 'MalformedRequest',
    message: 'A request has one Host header, not several (RFC 9112, 3.2).',
  },
  version: {
    status: 400,
    error: 'MalformedRequest',
    message: 'The sandbox speaks HTTP/1.1 (and 1.0); this request line names another version.',
  },
  asteriskTarget: {
    status: 400,
    error: 'MalformedRequest',
    message: 'The request target * is for OPTIONS only: name a path.',
  },
  transferCoding: {
    status: 501,
    error: 'NotImplemented',
    message: 'The sandbox decodes no transfer coding but chunked: send the body with Content-Length, or chunked alone.',
  },
  ownDelivery: {
    status: 400,
    error: 'MalformedRequest',
    message:
      'This is a webhook delivery of this sandbox, sent to the sandbox itself: point the endpoint at your receiver.',
  },
  expectation: { status: 417, error: 'MalformedRequest', message: 'The sandbox meets no Expect but 100-continue.' },
  connect: { status: 405, error: 'MethodNotAllowed', message: 'The sandbox opens no tunnels: CONNECT is not allowed.' },
} as const;

type TransportError = (typeof TRANSPORT_ERRORS)[keyof typeof TRANSPORT_ERRORS];
type ParserError = Error & { code?: string };

export function transportErrorFor(error: ParserError): TransportError {
  return error.code === 'HPE_HEADER_OVERFLOW' || error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
    ? TRANSPORT_ERRORS[error.code]
    : TRANSPORT_ERRORS.default;
}

/** The whole answer as bytes, for a socket that has no response object; a browser can read it (CORS). */
function rawAnswer({ status, error, message }: TransportError, corsOrigin: string): string {
  const body = JSON.stringify(errorBody(error, message));
  const cors = corsOrigin === LOOPBACK_ORIGINS ? '' : `Access-Control-Allow-Origin: ${corsOrigin}\r\n`;
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `${cors}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

function endSocket(socket: Duplex, answer: TransportError, corsOrigin: string): void {
  if (socket.writable) socket.end(rawAnswer(answer, corsOrigin));
  (socket as Duplex & { destroySoon?: () => void }).destroySoon?.();
}

/** fastify's clientErrorHandler: writes the refusal and closes the connection. */
export const clientErrorAnswerer =
  (corsOrigin: string) =>
  (error: ParserError, socket: Duplex): void => {
    // A reset connection has nobody to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    endSocket(socket, transportErrorFor(error), corsOrigin);
  };

function answerResponse(
  response: ServerResponse,
  { status, error, message }: TransportError,
  corsOrigin: string,
): void {
  const body = JSON.stringify(errorBody(error, message));
  // These answers come before any request is read, so the loopback policy, which reads the request's Origin, sends
  // none.
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
    ...(corsOrigin === LOOPBACK_ORIGINS ? {} : { 'access-control-allow-origin': corsOrigin }),
  });
  response.end(body);
}

/**
 * What Node's parser lets through but HTTP/1.1 refuses: no Host, or several (a proxy that reads
 * the last one would see another host than the sandbox, which reads the first); another major
 * version; `*` but for OPTIONS; and a transfer coding the sandbox would not decode (a body that
 * says gzip would be read as it is).
 */
function transportRefusal(
  request: IncomingMessage,
):
  | (typeof TRANSPORT_ERRORS)['version' | 'manyHosts' | 'missingHost' | 'asteriskTarget' | 'transferCoding']
  | undefined {
  if (request.httpVersionMajor !== 1) return TRANSPORT_ERRORS.version;
  const hosts = request.rawHeaders.filter((name, i) => i % 2 === 0 && name.toLowerCase() === 'host').length;
  if (hosts > 1) return TRANSPORT_ERRORS.manyHosts;
  if (request.httpVersion === '1.1' && hosts === 0) return TRANSPORT_ERRORS.missingHost;
  if (request.url === '*' && request.method !== 'OPTIONS') return TRANSPORT_ERRORS.asteriskTarget;
  const coding = request.headers['transfer-encoding'];
  if (coding !== undefined && coding.trim().toLowerCase() !== 'chunked') return TRANSPORT_ERRORS.transferCoding;
  return undefined;
}

/** Node's own answers (417, 400 for a missing Host, a dropped CONNECT) replaced by the contract's shape. */
export function registerTransportErrors(app: FastifyInstance, corsOrigin: string): void {
  // Node parses every method of http.METHODS; fastify routes only some. The rest (PROPFIND, PURGE…)
  // become routable, so that a path of the documents answers them 401/405 rather than 404.
  for (const method of METHODS) {
    if (method !== 'CONNECT' && !app.supportedMethods.includes(method)) app.addHttpMethod(method, { hasBody: true });
  }
  app.server.on('checkExpectation', (_request: IncomingMessage, response: ServerResponse) =>
    answerResponse(response, TRANSPORT_ERRORS.expectation, corsOrigin),
  );
  app.server.on('connect', (_request: IncomingMessage, socket: Duplex) =>
    endSocket(socket, TRANSPORT_ERRORS.connect, corsOrigin),
  );
  // Node refuses a missing Host only when requireHostHeader is on; it is off (app.ts), so it is refused here.
  // Callback-style hooks on every request: no promise per request and hook.
  app.addHook('onRequest', (request, _reply, done) => {
    const refused = transportRefusal(request.raw);
    if (refused) {
      const { status, error, message } = refused;
      return done(new HttpRefusal(status, error, message, { connection: 'close' }));
    }
    // An endpoint pointed at the sandbox would feed its own outbox (a redeliver URL): a loop, refused.
    if (request.headers[DELIVERY_HEADER] !== undefined) {
      const { status, error, message } = TRANSPORT_ERRORS.ownDelivery;
      return done(new HttpRefusal(status, error, message));
    }
    done();
  });
}
