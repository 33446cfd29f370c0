// 405 MethodNotAllowed as routes of their own: for every path of the documents, the methods it does
// not declare are registered to answer 405 with an Allow header. The router decides, on the decoded
// URL, so an encoded path gets the same answer, and the route needs a key like its siblings.
import type { FastifyInstance } from 'fastify';
import { registerBodyDrain } from './body-parsing.js';
import { fastifyPath, listOperations, templateMatches, type OpenApiDocument } from './document.js';
import { methodNotAllowed } from './errors.js';
import { takesAdminKey } from './document-facts.js';

export function registerMethodNotAllowed(app: FastifyInstance, documents: OpenApiDocument[]): void {
  const declared = documents.flatMap((doc) =>
    listOperations(doc).map((o) => ({ method: o.method.toUpperCase(), path: o.path, admin: takesAdminKey(o) })),
  );
  const paths = [...new Set(declared.map((d) => d.path))];
  void app.register(async (context) => {
    registerBodyDrain(context);
    for (const path of paths) {
      const allowed = declared.filter((d) => d.path === path).map((d) => d.method);
      // Every method fastify routes (QUERY, TRACE, PROPFIND, …), so that none falls through to 404.
      const refused = app.supportedMethods.filter(
        (method) =>
          !allowed.includes(method) &&
          // A static route would shadow a templated one of that method (GET /tokens/create vs GET /tokens/{id}).
          !declared.some((d) => d.method === method && d.path !== path && templateMatches(d.path, path)),
      );
      // Fastify answers HEAD for every GET route itself.
      const methods = allowed.includes('GET') ? refused.filter((method) => method !== 'HEAD') : refused;
      if (methods.length === 0) continue;
      context.route({
        method: methods,
        url: fastifyPath(path),
        // The error handler answers 405 too when fastify refuses the request first (QUERY without a Content-Type).
        // An admin's path takes its admin key (operations.ts), so that a channel's key learns nothing of it.
        config: {
          ...(declared.some((d) => d.path === path && d.admin) ? { requiresAdmin: true } : { requiresKey: true }),
          allowedMethods: allowed,
        },
        handler: async (request) => {
          throw methodNotAllowed(request.method, allowed);
        },
      });
    }
  });
}
