// The docs site (`npm run docs` builds it into site/) served at /docs: the guides, the reference and
// the try-it console, whose requests come back to this sandbox. Files are read from the site's
// folder only; a path that leaves it, or names nothing, is a 404. A content security policy keeps
// every request of these pages on this origin, whatever the bundles inside them would fetch.
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { docsBeingBuilt } from './docs-build-state.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.yaml': 'application/yaml',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

// Redoc and Scalar inline their styles and start from inline scripts; nothing may leave the origin.
const POLICY = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

// While `npm start` builds the docs in the background: the page asks again by itself (no script:
// a refresh), and 503 with Retry-After tells a program to do the same.
const beingBuilt =
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" ` +
  `content="2"><title>The docs are being built</title></head><body><main><h1>The docs are being built</h1>
<p>The sandbox builds its docs in the background the first time it starts, or after the contract or a guide ` +
  `changed: this takes a few seconds. This page reloads itself until they are ready. The API already answers.</p>` +
  `</main></body></html>`;

const notBuilt =
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Docs not ` +
  `built</title></head><body><main><h1>The docs are not built</h1>
<p>Run <code>npm run docs</code> in the repository (or start the sandbox with <code>npm start</code>, ` +
  `which builds them), then reload this page.</p></main></body></html>`;

/** `file`'s real path (every symlink followed) when it lies inside the real `root`, or undefined. */
function realInside(root: string, file: string): string | undefined {
  try {
    const [realRoot, real] = [realpathSync(root), realpathSync(file)];
    return real === realRoot || real.startsWith(realRoot + path.sep) ? real : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The file a /docs URL names inside `dir`, or undefined when it names none there: only a regular
 * file of a known type, whose real path is inside the site (a symlink out of it names nothing),
 * and no dotfile or file under a dot folder (a stamp, a .git).
 */
export function docsFile(dir: string, wildcard: string): string | undefined {
  let relative: string;
  try {
    relative = decodeURIComponent(wildcard);
  } catch {
    return undefined;
  }
  if (relative.includes('\0') || relative.split(/[\\/]/).some((segment) => segment.startsWith('.'))) return undefined;
  const root = path.resolve(dir);
  let file = realInside(root, path.resolve(root, `.${path.posix.sep}${relative}`));
  if (file && statSync(file).isDirectory()) file = realInside(root, path.join(file, 'index.html'));
  return file && statSync(file).isFile() && TYPES[path.extname(file)] ? file : undefined;
}

// Framed by no one: frame-ancestors in the policy, and X-Frame-Options for browsers without it.
const send = (reply: FastifyReply, status: number, type: string, body: string | Buffer) =>
  reply
    .code(status)
    .headers({
      'content-type': type,
      'content-security-policy': POLICY,
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-cache',
    })
    .send(body);

export function registerDocsRoutes(app: FastifyInstance, dir: string): void {
  // Relative links of the pages need the trailing slash.
  app.get('/docs', async (_request, reply) => reply.redirect('/docs/', 302));
  app.get('/docs/*', async (request, reply) => {
    const wildcard = (request.params as { '*': string })['*'];
    if (!existsSync(path.join(dir, 'index.html'))) {
      if (docsBeingBuilt(dir)) return send(reply.header('retry-after', '2'), 503, TYPES['.html']!, beingBuilt);
      return send(reply, 404, TYPES['.html']!, notBuilt);
    }
    const file = docsFile(dir, wildcard);
    if (!file)
      return send(
        reply,
        404,
        TYPES['.html']!,
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not ' +
          'found</title></head><body><main><h1>No such page</h1><p><a href="/docs/">The ' +
          'docs</a></p></main></body></html>',
      );
    return send(reply, 200, TYPES[path.extname(file)]!, readFileSync(file));
  });
}
