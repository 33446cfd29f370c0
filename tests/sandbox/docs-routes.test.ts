// /docs serves the built site from its folder and from nowhere else: no key needed, a strict
// content security policy on every answer, a 404 for any path that leaves the folder or names
// nothing, and a page that says how to build the docs when they are not built.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSandbox } from '../../src/sandbox/http/app.js';
import { createStore, openDatabase } from '../../src/sandbox/store/index.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';

const root = mkdtempSync(path.join(tmpdir(), 'docs-routes-'));
const site = path.join(root, 'site');
const empty = path.join(root, 'empty');
let app: FastifyInstance;
let unbuilt: FastifyInstance;

beforeAll(() => {
  mkdirSync(path.join(site, 'guides'), { recursive: true });
  mkdirSync(empty);
  writeFileSync(path.join(site, 'index.html'), '<!doctype html><title>Home</title>');
  writeFileSync(path.join(site, 'guides', 'quick-start.html'), '<!doctype html><title>Quick start</title>');
  writeFileSync(path.join(site, 'site.css'), 'body{}');
  writeFileSync(path.join(site, 'openapi-3.0.yaml'), 'openapi: 3.0.3\n');
  writeFileSync(path.join(site, '.inputs-sha256'), 'stamp');
  writeFileSync(path.join(root, 'secret.html'), 'outside the site');
  // Symlinks out of the site, a dotfile and a dot folder with servable types, and a symlink that stays inside.
  symlinkSync(path.join(root, 'secret.html'), path.join(site, 'link.html'));
  symlinkSync(root, path.join(site, 'outside'));
  writeFileSync(path.join(site, '.hidden.html'), 'outside the site: a dotfile');
  mkdirSync(path.join(site, '.git'));
  writeFileSync(path.join(site, '.git', 'config.json'), '"outside the site: a dot folder"');
  symlinkSync(path.join(site, 'guides', 'quick-start.html'), path.join(site, 'start.html'));
  app = buildSandbox({ store: sqliteBackend(createStore(openDatabase(':memory:'))), docsDir: site });
  unbuilt = buildSandbox({ store: sqliteBackend(createStore(openDatabase(':memory:'))), docsDir: empty });
});
afterAll(async () => {
  await app.close();
  await unbuilt.close();
  rmSync(root, { recursive: true, force: true });
});

const get = (url: string, target = app) => target.inject({ method: 'GET', url });

describe('/docs', () => {
  it('sends /docs to /docs/, whose relative links then resolve', async () => {
    const reply = await get('/docs');
    expect([reply.statusCode, reply.headers.location]).toEqual([302, '/docs/']);
  });

  it('serves the landing page, a guide, a stylesheet and a document, without a key, under a strict policy', async () => {
    for (const [url, type, body] of [
      ['/docs/', 'text/html; charset=utf-8', 'Home'],
      ['/docs/guides/quick-start.html', 'text/html; charset=utf-8', 'Quick start'],
      ['/docs/site.css', 'text/css; charset=utf-8', 'body{}'],
      ['/docs/openapi-3.0.yaml', 'application/yaml', 'openapi: 3.0.3'],
    ] as const) {
      const reply = await get(url);
      expect({ url, status: reply.statusCode, type: reply.headers['content-type'] }).toEqual({
        url,
        status: 200,
        type,
      });
      expect(reply.body).toContain(body);
      expect(reply.headers['content-security-policy']).toContain("connect-src 'self'");
      expect(reply.headers['content-security-policy']).toContain("default-src 'self'");
      expect(reply.headers['x-content-type-options']).toBe('nosniff');
      expect(reply.headers['x-frame-options']).toBe('DENY');
    }
    expect((await get('/docs/guides/')).statusCode).toBe(404);
    // A symlink whose real path stays inside the site is served.
    expect((await get('/docs/start.html')).body).toContain('Quick start');
    expect((await app.inject({ method: 'HEAD', url: '/docs/' })).statusCode).toBe(200);
  });

  it.each([
    '/docs/../secret.html',
    '/docs/..%2fsecret.html',
    '/docs/%2e%2e/secret.html',
    '/docs/%2e%2e%2fsecret.html',
    '/docs/guides/../../secret.html',
    '/docs/..%5csecret.html',
    '/docs/%00',
    '/docs/index.html%00.css',
    '/docs/%ff',
    '/docs/.inputs-sha256',
    '/docs/nope.html',
    '/docs//etc/passwd',
    '/docs/guides',
    '/docs/link.html',
    '/docs/outside/secret.html',
    '/docs/outside/',
    '/docs/.hidden.html',
    '/docs/%2ehidden.html',
    '/docs/.git/config.json',
    '/docs/guides/..%2f.git/config.json',
  ])('answers 404 to %s, never a file outside the site', async (url) => {
    const reply = await get(url);
    expect(reply.statusCode).toBe(404);
    expect(reply.body).not.toContain('outside the site');
  });

  it('says how to build the docs when they are not built', async () => {
    const reply = await get('/docs/', unbuilt);
    expect(reply.statusCode).toBe(404);
    expect(reply.body).toContain('npm run docs');
  });

  it('says the docs are being built, 503 with a page that reloads itself, while npm start builds them; 404 again once that builder is gone', async () => {
    const lock = `${empty}.building`;
    try {
      // The builder's pid: this process stands in for it, alive.
      writeFileSync(lock, String(process.pid));
      for (const url of ['/docs/', '/docs/guides/quick-start.html']) {
        const building = await get(url, unbuilt);
        expect([building.statusCode, building.headers['retry-after']]).toEqual([503, '2']);
        expect(building.body).toContain('<meta http-equiv="refresh" content="2">');
        expect(building.body).toContain('The docs are being built');
        expect(building.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      }
      // A build killed midway leaves its lock: a pid no process has is no build.
      writeFileSync(lock, '2147483646');
      expect((await get('/docs/', unbuilt)).statusCode).toBe(404);
      writeFileSync(lock, 'not a pid');
      expect((await get('/docs/', unbuilt)).statusCode).toBe(404);
    } finally {
      rmSync(lock, { force: true });
    }
  });

  it('is linked from the index page GET /', async () => {
    expect((await get('/')).body).toContain('<a href="/docs/">');
  });

  it('is absent when the sandbox has no docs folder, and so is its link on GET /', async () => {
    const bare = buildSandbox({ store: sqliteBackend(createStore(openDatabase(':memory:'))) });
    expect((await get('/', bare)).body).not.toContain('/docs/');
    expect((await get('/docs/', bare)).statusCode).toBe(404);
    expect((await get('/docs/', bare)).json()).toMatchObject({ error: 'NotFound' });
    await bare.close();
  });
});
