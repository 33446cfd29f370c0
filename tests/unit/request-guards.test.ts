// The request guards on their own, each on a fastify instance with nothing else: CORS (which
// answers a preflight and what every answer says), the API key (decided by the matched route),
// a form's origin, and the Host of an absolute-form target. The sandbox's suites drive them
// through every route; these say each rule exactly.
import Fastify, { type FastifyInstance } from 'fastify';
import type { SandboxStore } from '../../src/sandbox/store/store.js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkAllowedHost,
  hostAllowed,
  hostnameOf,
  registerHostCheck,
  targetAuthorityOf,
} from '../../src/sandbox/http/allowed-hosts.js';
import { API_KEY_HEADER, channelOf, parseApiKeys, registerAuth } from '../../src/sandbox/http/auth.js';
import { checkCorsOrigin, LOOPBACK_ORIGINS, registerCors } from '../../src/sandbox/http/cors.js';
import { registerErrorPath } from '../../src/sandbox/http/errors.js';
import { fromAnotherSite } from '../../src/sandbox/http/form-origin.js';

const apps: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

/** An API path (/api: POST, its other methods answered 405 by a route that knows them) and a page (/page), behind `guard`. */
function guarded(guard: (app: FastifyInstance) => void): FastifyInstance {
  const app = Fastify();
  apps.push(app);
  registerErrorPath(app);
  guard(app);
  app.post('/api', { config: { requiresKey: true } }, async (request) => ({ channel: request.channel }));
  app.route({
    method: ['OPTIONS', 'GET'],
    url: '/api',
    config: { requiresKey: true, allowedMethods: ['POST', 'GET'] },
    handler: async (_request, reply) => reply.code(405).send({ error: 'MethodNotAllowed' }),
  });
  app.get('/page', async (request) => ({ channel: request.channel }));
  app.options('/page', async (_request, reply) => reply.code(404).send({ error: 'NotFound' }));
  return app;
}

describe('CORS', () => {
  const withCors = (policy: string) =>
    guarded((app) => registerCors(app, policy, ['content-type', 'x-service-api-key']));
  const preflight = (app: FastifyInstance, url: string, origin = 'http://localhost:5173') =>
    app.inject({
      method: 'OPTIONS',
      url,
      headers: { origin, 'access-control-request-method': 'DELETE', 'access-control-request-headers': 'authorization' },
    });

  it("answers a preflight of an API path itself: 204, the path's methods, the declared headers (not those asked), for 600 s", async () => {
    const reply = await preflight(withCors(LOOPBACK_ORIGINS), '/api');
    expect(reply.statusCode).toBe(204);
    expect(reply.headers).toMatchObject({
      'access-control-allow-methods': 'POST, GET',
      'access-control-allow-headers': 'content-type, x-service-api-key',
      'access-control-max-age': '600',
      'access-control-allow-origin': 'http://localhost:5173',
      'access-control-expose-headers': 'allow, content-type, retry-after, ratelimit, ratelimit-policy, x-request-id',
      vary: 'Origin',
    });
    expect(reply.body).toBe('');
  });

  it('leaves a preflight of a path that is no API path, and an OPTIONS that is no preflight, to their routes', async () => {
    const app = withCors(LOOPBACK_ORIGINS);
    expect((await preflight(app, '/page')).statusCode).toBe(404);
    const plain = await app.inject({ method: 'OPTIONS', url: '/api', headers: { origin: 'http://localhost:5173' } });
    expect(plain.statusCode).toBe(405);
    expect(plain.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('takes only an OPTIONS as a preflight: a POST that carries Access-Control-Request-Method reaches its route', async () => {
    const reply = await withCors(LOOPBACK_ORIGINS).inject({
      method: 'POST',
      url: '/api',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
    });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['access-control-allow-methods']).toBeUndefined();
  });

  it("names a loopback page's origin, and no other, under the loopback policy; says Vary: Origin either way", async () => {
    const app = withCors(LOOPBACK_ORIGINS);
    const foreign = await app.inject({ method: 'POST', url: '/api', headers: { origin: 'https://evil.example' } });
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    expect(foreign.headers['access-control-expose-headers']).toBeUndefined();
    expect(foreign.headers.vary).toBe('Origin');
    expect((await app.inject({ method: 'POST', url: '/api' })).headers['access-control-allow-origin']).toBeUndefined();
  });

  it('names its one origin whoever asks, and * without Vary', async () => {
    const one = await withCors('https://shop.example').inject({
      method: 'POST',
      url: '/api',
      headers: { origin: 'http://localhost:5173' },
    });
    expect(one.headers).toMatchObject({ 'access-control-allow-origin': 'https://shop.example', vary: 'Origin' });
    const any = await withCors('*').inject({
      method: 'POST',
      url: '/api',
      headers: { origin: 'https://evil.example' },
    });
    expect(any.headers['access-control-allow-origin']).toBe('*');
    expect(any.headers.vary).toBeUndefined();
  });

  it.each(['*', 'loopback', 'https://shop.example', 'http://localhost:5173', 'http://[::1]:8080'])(
    '--cors-origin %s is taken',
    (origin) => {
      expect(() => checkCorsOrigin(origin)).not.toThrow();
    },
  );

  it.each([
    'https://shop.example/',
    'https://shop.example:443',
    'shop.example',
    'null',
    '',
    'https://bücher.example',
    'HTTPS://SHOP.EXAMPLE',
    'https://a b.example',
  ])('--cors-origin %j is refused, since a browser never sends it', (origin) => {
    expect(() => checkCorsOrigin(origin)).toThrow(
      `--cors-origin must be *, loopback or an origin such as https://shop.example, not ${JSON.stringify(origin)}`,
    );
  });
});

describe('the API key', () => {
  const keys = new Map([
    ['k-one', 'one'],
    ['k-two', 'two'],
  ]);
  /** A store that knows no managed key: these tests hold the fixed keys' rules. */
  const noManagedKeys = {
    revalidate: async () => {},
    apiKeys: { channelOf: async () => undefined },
  } as unknown as SandboxStore;
  const withAuth = () => guarded((app) => registerAuth(app, keys, noManagedKeys));

  it('is needed by the routes that say so, and names their channel', async () => {
    const app = withAuth();
    expect((await app.inject({ method: 'POST', url: '/api', headers: { [API_KEY_HEADER]: 'k-two' } })).json()).toEqual({
      channel: 'two',
    });
    expect((await app.inject({ method: 'POST', url: '/api' })).json()).toEqual({
      error: 'Unauthorized',
      message: 'The x-service-api-key header is missing.',
    });
    expect(
      (await app.inject({ method: 'POST', url: '/api', headers: { [API_KEY_HEADER]: 'k-three' } })).json(),
    ).toEqual({ error: 'Unauthorized', message: 'The x-service-api-key is not a known sandbox key.' });
    expect((await app.inject({ method: 'POST', url: '/api', headers: { [API_KEY_HEADER]: '' } })).statusCode).toBe(401);
  });

  it('is not read by the others, which run in no channel', async () => {
    expect(
      (await withAuth().inject({ method: 'GET', url: '/page', headers: { [API_KEY_HEADER]: 'k-three' } })).json(),
    ).toEqual({ channel: '' });
  });

  it('channelOf refuses to go on without a channel, as the key check would have', () => {
    expect(() => channelOf({ channel: '', headers: {} } as never)).toThrow('The x-service-api-key header is missing.');
    expect(() => channelOf({ channel: '', headers: { [API_KEY_HEADER]: 'x' } } as never)).toThrow(
      'The x-service-api-key is not a known sandbox key.',
    );
    expect(channelOf({ channel: 'one', headers: {} } as never)).toBe('one');
  });

  it('SANDBOX_API_KEYS is read as key:channel pairs, commas between, blanks ignored', () => {
    expect([...parseApiKeys(' a:one , b:two,,')]).toEqual([
      ['a', 'one'],
      ['b', 'two'],
    ]);
    expect(parseApiKeys('')).toEqual(new Map());
    for (const pair of ['a', 'a:', ':one', 'a:one:x'])
      expect(() => parseApiKeys(`b:two,${pair}`)).toThrow(
        `SANDBOX_API_KEYS entry ${JSON.stringify(pair)} is not key:channel`,
      );
  });
});

describe("a form's origin", () => {
  it.each([
    ['no header (curl, a script)', {}, false],
    ['Sec-Fetch-Site same-origin', { 'sec-fetch-site': 'same-origin' }, false],
    ['Sec-Fetch-Site none (a navigation the user started)', { 'sec-fetch-site': 'none' }, false],
    ['Sec-Fetch-Site same-site (another port of this host)', { 'sec-fetch-site': 'same-site' }, true],
    ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }, true],
    ['its own Origin', { origin: 'http://localhost:4010', host: 'localhost:4010' }, false],
    [
      'its own Origin, the default port written on one side only',
      { origin: 'http://localhost', host: 'localhost:80' },
      false,
    ],
    [
      'its own https Origin, the default port on the Host',
      { origin: 'https://sandbox.test', host: 'sandbox.test:443' },
      false,
    ],
    ['another port of this host', { origin: 'http://localhost:5173', host: 'localhost:4010' }, true],
    [
      "another scheme (the Host read with the Origin's)",
      { origin: 'https://localhost:4010', host: 'localhost:4010' },
      false,
    ],
    ['an opaque origin', { origin: 'null', host: 'localhost:4010' }, true],
    ['an Origin and no Host', { origin: 'http://localhost:4010' }, true],
    ['an Origin whose host is "undefined", and no Host', { origin: 'http://undefined' }, true],
    ['a Host no URL can hold', { origin: 'http://localhost:4010', host: 'local host' }, true],
    [
      'its own Origin, from a cross-site fetch',
      { origin: 'http://localhost:4010', host: 'localhost:4010', 'sec-fetch-site': 'cross-site' },
      true,
    ],
  ])('%s: from another site is %s', (_what, headers, another) => {
    expect(fromAnotherSite(headers)).toBe(another);
  });
});

describe('the host a request is for', () => {
  it.each([
    ['/payments/v1/payment_sessions', undefined],
    ['*', undefined],
    ['http://evil.example/x', 'evil.example'],
    ['HTTPS://Evil.Example:8443?q=1', 'Evil.Example:8443'],
    ['http://127.0.0.1', '127.0.0.1'],
    ['/x?u=http://evil.example/', undefined],
    ['http://user@host/x', 'user@host'],
    ['http://', ''],
    ['ftp://files.example/a', 'files.example'],
    ['//evil.example/x', undefined],
  ])('the target %j names the host %j', (url, authority) => {
    expect(targetAuthorityOf(url)).toBe(authority);
  });

  it('--allowed-hosts takes labels of 1 to 63 letters, digits and inner hyphens', () => {
    expect(['a.b.test', 'x', `${'a'.repeat(63)}.test`, 'a-1.test', '.a.test'].map(checkAllowedHost)).toEqual([
      'a.b.test',
      'x',
      `${'a'.repeat(63)}.test`,
      'a-1.test',
      '.a.test',
    ]);
    for (const bad of [`${'a'.repeat(64)}.test`, 'a-.test', 'a..test', 'a.test.', '..a.test', 'a_b.test'])
      expect(() => checkAllowedHost(bad)).toThrow(`--allowed-hosts: ${JSON.stringify(bad)} is not a host name`);
  });

  it('reads a Host with blanks around it, and says what a host is for a Host it cannot read', async () => {
    expect(hostnameOf(' LocalHost:4010 ')).toBe('localhost');
    // Only the blanks HTTP allows around a value, SP and HTAB, however many, at either end.
    expect(hostnameOf('\t \tLocalHost:4010\t \t')).toBe('localhost');
    for (const host of ['localhost\u00a0', '\u00a0localhost', '\u3000localhost', 'localhost\n', '\ufefflocalhost']) {
      expect(hostnameOf(host), JSON.stringify(host)).toBeUndefined();
    }
    const app = guarded((a) => registerHostCheck(a, { publicUrl: () => 'http://127.0.0.1:4010', names: [] }));
    expect(
      (await app.inject({ method: 'GET', url: '/page', headers: { host: 'evil.com/.localhost:4010' } })).json(),
    ).toEqual({
      error: 'Forbidden',
      message:
        'The host "evil.com/.localhost:4010" is not a host name or an IP address: the sandbox reads a host as letters, digits and hyphens between dots (at most 253 characters), an IPv4 address, or an IPv6 address in brackets, with an optional port from 1 to 65535.',
    });
    expect(
      (await app.inject({ method: 'GET', url: '/page', headers: { host: `${'a'.repeat(101)}_` } })).json().message,
    ).toMatch(new RegExp(`^The host "${'a'.repeat(100)}…" is not a host name`));
  });

  it.each([
    // The port: 1 to 65535, digits only.
    ['localhost:1', 'localhost'],
    ['localhost:65535', 'localhost'],
    ['localhost:0', undefined],
    ['localhost:65536', undefined],
    ['localhost:123456', undefined],
    ['localhost:', undefined],
    ['localhost:8o', undefined],
    [':4010', undefined],
    ['localhost:80:80', undefined],
    // An IPv6 address in brackets, and nothing else in them.
    ['[::1]:4010', '::1'],
    ['[FE80::1]', 'fe80::1'],
    ['[127.0.0.1]', undefined],
    ['[x]', undefined],
    ['[::1', undefined],
    ['::1', undefined],
    ['[::1]x', undefined],
    // A name: labels of 1 to 63 characters between single dots, one more dot at most at the end, 253 characters at most.
    ['Example.COM.', 'example.com'],
    ['a.', 'a'],
    ['.', undefined],
    ['a..b', undefined],
    ['a.b..', undefined],
    ['.a', undefined],
    [`${'a'.repeat(63)}.b`, `${'a'.repeat(63)}.b`],
    [`${'a'.repeat(64)}.b`, undefined],
    [`${'a.'.repeat(126)}b`, `${'a.'.repeat(126)}b`],
    [`${'a.'.repeat(126)}b.`, `${'a.'.repeat(126)}b`],
    [`${'a.'.repeat(126)}bc`, undefined],
    ['evil.com/.localhost', undefined],
    ['evil.com?.localhost', undefined],
    ['evil.com#.localhost', undefined],
    ['a@localhost', undefined],
    ['a b', undefined],
    ['', undefined],
    // Its last label is no number, unless the whole is an IPv4 address.
    ['10.0.0.1', '10.0.0.1'],
    ['127.0.0.1.', '127.0.0.1'],
    ['127.1', undefined],
    ['1', undefined],
    ['12', undefined],
    ['a.1', undefined],
    ['a.12', undefined],
    ['010.0.0.1', undefined],
    ['a:b:localhost', undefined],
    ['a1', 'a1'],
    ['1a', '1a'],
    ['a.1b', 'a.1b'],
    ['1.a', '1.a'],
  ])('hostnameOf(%j) is %j', (host, name) => {
    expect(hostnameOf(host)).toBe(name);
  });

  it("a Host that is only a dot names nothing, even when the public URL's host could not be read", () => {
    expect(hostAllowed('.', { publicHost: '', names: [] })).toBe(false);
    expect(hostAllowed('.:4010', { publicHost: '', names: ['.'] })).toBe(false);
  });

  it('refuses a foreign Host in a message that shows its first 100 characters and says how to allow it', async () => {
    const app = guarded((a) => registerHostCheck(a, { publicUrl: () => 'http://127.0.0.1:4010', names: [] }));
    const long = `${'a'.repeat(60)}.${'a'.repeat(60)}.example`;
    expect((await app.inject({ method: 'GET', url: '/page', headers: { host: long } })).json()).toEqual({
      error: 'Forbidden',
      message: `The sandbox does not answer to the host "${long.slice(0, 100)}…": it answers to an IP address, localhost and 127.0.0.1. To reach it by this name, start it with --allowed-hosts ${long} (or SANDBOX_ALLOWED_HOSTS).`,
    });
  });

  it('names the allowed names in its refusal, and a host of exactly 100 characters whole, without its port', async () => {
    const app = guarded((a) =>
      registerHostCheck(a, { publicUrl: () => 'https://sandbox.shop.example', names: ['qa.test', '.preview.test'] }),
    );
    const host = `${'b'.repeat(50)}.${'b'.repeat(43)}.EX:80`;
    const reply = await app.inject({ method: 'GET', url: '/page', headers: { host } });
    expect(reply.json().message).toBe(
      `The sandbox does not answer to the host "${host}": it answers to an IP address, localhost and sandbox.shop.example, and qa.test, .preview.test. To reach it by this name, start it with --allowed-hosts ${host.slice(0, -3).toLowerCase()} (or SANDBOX_ALLOWED_HOSTS).`,
    );
  });
});
