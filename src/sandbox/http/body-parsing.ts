// JSON bodies: a malformed body is not an error of the parser but of the operation, so that each
// operation answers it with its own error code (and cancel, which reads no body, ignores it).
import type { FastifyInstance } from 'fastify';

/** Stands for a body that is not valid JSON; the route decides what that means. */
export class MalformedBody {
  constructor(readonly reason: string) {}
}

export const BODY_LIMIT_BYTES = 256 * 1024;

export function registerJsonParser(app: FastifyInstance): void {
  // Fastify's own parser, which also refuses __proto__ and constructor.prototype keys.
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES }, (request, body, done) => {
    parse(request, body as string, (error, value) => {
      if (error) return done(null, new MalformedBody(describeParseError(body as string)));
      done(null, value);
    });
  });
}

function describeParseError(body: string): string {
  if (body.trim() === '') return 'the body is empty';
  try {
    JSON.parse(body);
  } catch (syntax) {
    return (syntax as Error).message;
  }
  // It is JSON, so Fastify refused it for prototype poisoning.
  return 'it sets a forbidden __proto__ or constructor.prototype key';
}
