// One short line per request (method, path, status, time), so that a developer sees their
// integration's traffic scroll by. The CLI's --quiet turns it off.
import type { FastifyInstance } from 'fastify';

export function registerRequestLog(app: FastifyInstance, write: (line: string) => void): void {
  app.addHook('onResponse', (request, reply, done) => {
    const path = request.url.length > 120 ? `${request.url.slice(0, 120)}…` : request.url;
    write(`${request.method} ${path} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)} ms`);
    done();
  });
}
