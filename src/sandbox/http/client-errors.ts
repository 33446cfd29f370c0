// Requests that never reach the router: the HTTP parser refused them (headers over the limit, a
// malformed request line, a timeout). They still get the contract's {error, message} shape, and
// `Connection: close`, because the parser cannot find where the next request on the socket starts.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/** The sandbox's codes for refusals before routing (declared in openapi/sandbox.yaml). */
export const TRANSPORT_ERRORS = {
  HPE_HEADER_OVERFLOW: { status: 431, error: 'RequestHeaderFieldsTooLarge', message: 'The request headers exceed the sandbox limit of 16 KiB.' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, error: 'RequestTimeout', message: 'The request was not received in time.' },
  default: { status: 400, error: 'MalformedRequest', message: 'The request is not valid HTTP/1.1.' },
} as const;

type ParserError = Error & { code?: string };

export function transportErrorFor(error: ParserError) {
  return error.code === 'HPE_HEADER_OVERFLOW' || error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? TRANSPORT_ERRORS[error.code] : TRANSPORT_ERRORS.default;
}

/** fastify's clientErrorHandler: writes the refusal and closes the connection. */
export function answerClientError(error: ParserError, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, error: code, message } = transportErrorFor(error);
  const body = JSON.stringify({ error: code, message });
  if (socket.writable) {
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroySoon();
}
