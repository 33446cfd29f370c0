// Request bodies. A malformed body is not an error of the parser but of the operation, so that each
// operation answers it with its own error code; an operation that reads no body (cancel) drains it.
import type { FastifyInstance } from 'fastify';

/** Stands for a body that cannot be read as JSON; the route decides what that means. */
export class MalformedBody {
  constructor(readonly message: string) {}
}

export const BODY_LIMIT_BYTES = 256 * 1024;

export function registerJsonParser(app: FastifyInstance): void {
  // Fastify's own parser, which also refuses __proto__ and constructor.prototype keys.
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES }, (request, body, done) => {
    // An empty body is no body: optional bodies (void) may be sent as nothing at all.
    if ((body as string).trim() === '') return done(null, undefined);
    parse(request, body as string, (error, value) => {
      if (error) return done(null, new MalformedBody(`The request body is not valid JSON: ${describeParseError(body as string)}.`));
      done(null, value);
    });
  });
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES }, (_request, body, done) => {
    done(null, (body as string).length === 0 ? undefined : new MalformedBody('Send the request body as application/json.'));
  });
}

/** For routes that read no body: accept any content type and size, and discard it unread. */
export function registerBodyDrain(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => {
    payload.on('error', done);
    payload.on('end', () => done(null, undefined));
    payload.resume();
  });
}

function describeParseError(body: string): string {
  try {
    JSON.parse(body);
  } catch (syntax) {
    return (syntax as Error).message;
  }
  // It is JSON, so Fastify refused it for prototype poisoning.
  return 'it sets a forbidden __proto__ or constructor.prototype key';
}
