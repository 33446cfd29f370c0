// The names the sandbox answers to (http/allowed-hosts.ts), against DNS rebinding: a page whose
// name is re-pointed at the sandbox arrives with its own Host, and is refused before anything runs.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildSandbox } from '../../src/sandbox/http/app.js';
import { checkAllowedHost, hostAllowed, hostnameOf } from '../../src/sandbox/http/allowed-hosts.js';
import { createStore, openDatabase } from '../../src/sandbox/store/index.js';
import { jsonBody, rawExchange, statusLine } from '../support/raw-http.js';
import { testSandbox, type TestSandbox } from '../../testkit/sandbox.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';

const KEY = { 'x-service-api-key': 'sandbox-dev-key' };
const KEY_LINE = 'x-service-api-key: sandbox-dev-key\r\n';
const opened: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  for (const app of opened.splice(0)) await app.close();
});

function sandbox(options: { publicUrl?: string; allowedHosts?: string[] } = {}) {
  const app = buildSandbox({ store: sqliteBackend(createStore(openDatabase(':memory:'))), ...options });
  opened.push(app);
  return (
    host: string | undefined,
    url = '/payments/v1/payment_sessions',
    method: 'GET' | 'POST' | 'OPTIONS' = 'GET',
  ) => app.inject({ method, url, headers: { ...KEY, ...(host !== undefined ? { host } : {}) } });
}

const NOT_A_HOST = 'is not a host name or an IP address';

describe('a Host that is no host name or address', () => {
  it.each(['evil.com/.localhost', 'evil.com?.localhost', 'evil.com#.localhost'])(
    'Host: %s with the published key answers 403 Forbidden, not 200 as a localhost name',
    async (host) => {
      const app = buildSandbox({ store: sqliteBackend(createStore(openDatabase(':memory:'))) });
      opened.push(app);
      const { text } = await rawExchange(
        app,
        `GET /payments/v1/payment_sessions HTTP/1.1\r\nHost: ${host}\r\nx-service-api-key: sandbox-dev-key\r\nConnection: close\r\n\r\n`,
      );
      expect(statusLine(text)).toBe('HTTP/1.1 403 Forbidden');
      expect(jsonBody(text)).toEqual({
        error: 'Forbidden',
        message: expect.stringContaining(`The host ${JSON.stringify(host)} ${NOT_A_HOST}`),
      });
    },
  );

  const NO_BREAK_SPACE = ['localhost\u00a0', '\u00a0localhost', '127.0.0.1\u00a0'];
  it.each(NO_BREAK_SPACE)(
    'Host: %j, a no-break space sent as the byte 0xA0, answers 403 Forbidden, not 200',
    async (host) => {
      const app = buildSandbox({ store: sqliteBackend(createStore(openDatabase(':memory:'))) });
      opened.push(app);
      // One byte per character: Node reads a header's bytes as latin1, so 0xA0 arrives as U+00A0.
      const request =
        `GET /payments/v1/payment_sessions HTTP/1.1\r\nHost: ${host}\r\n` +
        'x-service-api-key: sandbox-dev-key\r\nConnection: close\r\n\r\n';
      const { text } = await rawExchange(app, Buffer.from(request, 'latin1'));
      expect(statusLine(text)).toBe('HTTP/1.1 403 Forbidden');
      expect(jsonBody(text)).toEqual({ error: 'Forbidden', message: expect.stringContaining(NOT_A_HOST) });
    },
  );

  it('Host: with the blanks HTTP allows around a value (spaces and tabs) is read without them', async () => {
    const app = buildSandbox({ store: sqliteBackend(createStore(openDatabase(':memory:'))) });
    opened.push(app);
    const { text } = await rawExchange(
      app,
      'GET /payments/v1/payment_sessions HTTP/1.1\r\n' +
        'Host: \t localhost:4010 \t\r\nx-service-api-key: sandbox-dev-key\r\nConnection: close\r\n\r\n',
    );
    expect(statusLine(text)).toBe('HTTP/1.1 200 OK');
  });

  it.each([
    ['an empty label', 'a..localhost'],
    ['two dots at the end', 'a.localhost..'],
    ['a leading dot', '.localhost'],
    ['userinfo', 'a@localhost'],
    ['a backslash', 'evil.com\\.localhost'],
    ['percent-encoding', 'evil.com%2f.localhost'],
    ['a blank inside', 'evil.com .localhost'],
    ['a tab inside', 'evil.com\t.localhost'],
    ['an underscore', 'a_b.localhost'],
    ['a hyphen first', '-a.localhost'],
    ['a hyphen last', 'a-.localhost'],
    ['a label of 64 characters', `${'a'.repeat(64)}.localhost`],
    ['a name of 254 characters', `ab.${'a.'.repeat(121)}localhost`],
    ['port 0', 'localhost:0'],
    ['an empty port', 'localhost:'],
    ['a port of 6 digits', 'localhost:065535'],
    ['a sign in the port', 'localhost:+80'],
    ['an IPv4 address in brackets', '[127.0.0.1]'],
    ['an IPv6 zone', '[fe80::1%25eth0]'],
    ['IPv6 without brackets', '::1'],
    ['an address a browser reads as 127.0.0.1', '127.1'],
    ['a hexadecimal octet', '0x7f.0.0.1'],
    ['a leading zero', '127.0.0.01'],
    ['an octet over 255', '127.0.0.256'],
  ])('%s (%j) answers 403 Forbidden, saying what a host is', async (_what, host) => {
    const reply = await sandbox()(host);
    expect(reply.statusCode).toBe(403);
    expect(reply.json()).toEqual({ error: 'Forbidden', message: expect.stringContaining(NOT_A_HOST) });
  });

  const absoluteForm = async (target: string) => {
    const app = buildSandbox({ store: sqliteBackend(createStore(openDatabase(':memory:'))) });
    opened.push(app);
    const { text } = await rawExchange(
      app,
      `GET ${target} HTTP/1.1\r\nHost: localhost\r\nx-service-api-key: sandbox-dev-key\r\nConnection: close\r\n\r\n`,
    );
    return { status: statusLine(text), body: jsonBody(text) };
  };

  it.each([
    ['http://a@localhost/payments/v1/payment_sessions', 'a@localhost'],
    ['http://a..localhost:4010/payments/v1/payment_sessions', 'a..localhost:4010'],
    ['http://localhost:0/payments/v1/payment_sessions', 'localhost:0'],
  ])(
    'an absolute-form target %s whose authority is no host answers 403 too, whatever Host says',
    async (target, authority) => {
      const { status, body } = await absoluteForm(target);
      expect(status).toBe('HTTP/1.1 403 Forbidden');
      expect(body.message).toContain(`The host ${JSON.stringify(authority)} ${NOT_A_HOST}`);
    },
  );

  it('an absolute-form target http://evil.com?.localhost/… is for evil.com, which answers 403', async () => {
    const { status, body } = await absoluteForm('http://evil.com?.localhost/payments/v1/payment_sessions');
    expect(status).toBe('HTTP/1.1 403 Forbidden');
    expect(body.message).toContain('The sandbox does not answer to the host "evil.com"');
  });

  it.each([
    ['http://evil.com#.localhost/payments/v1/payment_sessions', 'HTTP/1.1 400 Bad Request', 'MalformedRequest'],
    ['http://evil.com\\.localhost/payments/v1/payment_sessions', 'HTTP/1.1 400 Bad Request', 'MalformedRequest'],
    ['http://evil.com%2f.localhost/payments/v1/payment_sessions', 'HTTP/1.1 404 Not Found', 'NotFound'],
    ['http://[127.0.0.1]/payments/v1/payment_sessions', 'HTTP/1.1 404 Not Found', 'NotFound'],
  ])('an absolute-form target %s is refused before any route reads it', async (target, status, error) => {
    expect(await absoluteForm(target)).toEqual({ status, body: { error, message: expect.any(String) } });
  });

  it.each([
    ['a rooted name', 'localhost.'],
    ['a rooted subdomain with a port', 'API.Localhost.:4010'],
    ['a rooted name of 253 characters', `${'a.'.repeat(122)}localhost.`],
    ['labels of 63 characters', `${'a'.repeat(63)}.localhost`],
    ['inner hyphens and digits', 'x-1.b2.localhost'],
    ['port 1', 'localhost:1'],
    ['a rooted address', '127.0.0.1.'],
    ['an IPv4-mapped IPv6 address', '[::FFFF:127.0.0.1]:65535'],
  ])('%s (%j) is a host, and a localhost name or an address is served', async (_what, host) => {
    expect((await sandbox()(host)).statusCode).toBe(200);
  });
});

describe('a Host the sandbox is not reached by', () => {
  it("attacker.example:4721 with the published key answers 403 Forbidden in the contract's shape, not 200", async () => {
    const reply = await sandbox()('attacker.example:4721');
    expect(reply.statusCode).toBe(403);
    expect(reply.json()).toEqual({ error: 'Forbidden', message: expect.stringContaining('"attacker.example:4721"') });
    expect(reply.json().message).toContain('--allowed-hosts attacker.example');
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
  });

  it.each([
    ['the hosted checkout page', '/checkout/00000000-0000-4000-8000-000000000000', 'GET'],
    ['the return page', '/return/success', 'GET'],
    ['the dashboard', '/dashboard/', 'GET'],
    ['the documents', '/openapi.json', 'GET'],
    ['a helper', '/sandbox/v1/evolution_drill', 'GET'],
    ['a preflight', '/payments/v1/payment_sessions', 'OPTIONS'],
    ['a route that does not exist', '/nowhere', 'GET'],
    ['the health check', '/health', 'GET'],
  ] as const)('is refused on %s too', async (_what, url, method) => {
    expect((await sandbox()('rebound.example', url, method)).statusCode).toBe(403);
  });

  it.each([
    'localhost.attacker.example',
    'attacker.example.',
    '127.0.0.1.nip.io',
    'sandbox.test',
    'a b',
    ':4010',
    '[::1',
    'x'.repeat(300),
  ])('refuses %j', async (host) => {
    const reply = await sandbox()(host);
    expect(reply.statusCode).toBe(403);
    expect(reply.json().message.length).toBeLessThan(600);
  });
});

describe('the names the sandbox answers to', () => {
  it.each([
    '127.0.0.1:4010',
    'localhost:4010',
    'LOCALHOST',
    'localhost',
    'api.localhost:4010',
    '[::1]:4010',
    '10.1.2.3',
    '[fe80::1]',
  ])('an IP address or localhost: %s', async (host) => {
    expect((await sandbox()(host)).statusCode).toBe(200);
  });

  it("the public URL's host", async () => {
    const ask = sandbox({ publicUrl: 'https://sandbox.shop.example' });
    expect((await ask('sandbox.shop.example')).statusCode).toBe(200);
    expect((await ask('other.shop.example')).statusCode).toBe(403);
  });

  it('the names of --allowed-hosts, a leading dot allowing the subdomains', async () => {
    const ask = sandbox({ allowedHosts: ['qa.test', '.preview.test'] });
    expect((await ask('qa.test:8080')).statusCode).toBe(200);
    expect((await ask('www.qa.test')).statusCode).toBe(403);
    expect((await ask('preview.test')).statusCode).toBe(200);
    expect((await ask('pr-12.preview.test')).statusCode).toBe(200);
    expect((await ask('notpreview.test')).statusCode).toBe(403);
  });
});

describe('the host a request is for', () => {
  let s: TestSandbox;
  beforeEach(() => {
    s = testSandbox();
  });
  afterEach(() => s.close());

  it('GET http://evil.example/payments/v1/payment_sessions with Host 127.0.0.1 answers 403: an absolute-form target names the host, not Host', async () => {
    const { text } = await rawExchange(
      s.app,
      `GET http://evil.example/payments/v1/payment_sessions HTTP/1.1\r\nHost: 127.0.0.1:4931\r\n${KEY_LINE}Connection: close\r\n\r\n`,
    );
    expect(statusLine(text)).toBe('HTTP/1.1 403 Forbidden');
    expect(jsonBody(text)).toEqual({ error: 'Forbidden', message: expect.stringContaining('"evil.example"') });
  });

  it.each(['https://evil.example:443/health', 'http://evil.example', 'http://user@127.0.0.1/health'])(
    'refuses the absolute-form target %s too',
    async (target) => {
      const { text } = await rawExchange(
        s.app,
        `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
      );
      expect(statusLine(text)).toBe('HTTP/1.1 403 Forbidden');
    },
  );

  it('answers an absolute-form target that names the sandbox, whatever Host says', async () => {
    const { text } = await rawExchange(
      s.app,
      `GET http://localhost:4010/payments/v1/payment_sessions HTTP/1.1\r\nHost: 127.0.0.1\r\n${KEY_LINE}Connection: close\r\n\r\n`,
    );
    expect(statusLine(text)).toBe('HTTP/1.1 200 OK');
  });

  it.each([
    ['127.0.0.1', 'evil.example'],
    ['evil.example', '127.0.0.1'],
    ['127.0.0.1', '127.0.0.1'],
  ])('two Host headers (%s, then %s) answer 400 MalformedRequest, whichever comes first', async (first, second) => {
    const { text } = await rawExchange(
      s.app,
      `GET /payments/v1/payment_sessions HTTP/1.1\r\nHost: ${first}\r\nHost: ${second}\r\n${KEY_LINE}Connection: close\r\n\r\n`,
    );
    expect(statusLine(text)).toBe('HTTP/1.1 400 Bad Request');
    expect(jsonBody(text)).toEqual({
      error: 'MalformedRequest',
      message: 'A request has one Host header, not several (RFC 9112, 3.2).',
    });
  });

  it.each(['127.0.0.1:99999', 'localhost:65536'])('Host %s, a port no address has, answers 403', async (host) => {
    expect((await s.app.inject({ method: 'GET', url: '/health', headers: { host } })).statusCode).toBe(403);
  });

  it('Host 127.0.0.1:65535, the last port, is served', async () => {
    expect(
      (await s.app.inject({ method: 'GET', url: '/health', headers: { host: '127.0.0.1:65535' } })).statusCode,
    ).toBe(200);
  });
});

describe('the rules', () => {
  it.each([
    ['localhost:4010', 'localhost'],
    ['[::1]:4010', '::1'],
    ['Example.COM.', 'example.com'],
    ['10.0.0.1', '10.0.0.1'],
    ['a:b:c', undefined],
    ['[x]', undefined],
    ['', undefined],
    ['host:123456', undefined],
  ])('hostnameOf(%j) is %j', (host, name) => {
    expect(hostnameOf(host)).toBe(name);
  });

  it('hostAllowed reads names case-insensitively and compares subdomains on a dot', () => {
    const allowed = { publicHost: 'pub.example', names: ['exact.test', '.wild.test'] };
    expect(['PUB.example', 'exact.test', 'a.wild.test', 'wild.test'].map((h) => hostAllowed(h, allowed))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['a.exact.test', 'xwild.test', 'pub.example.evil', ''].map((h) => hostAllowed(h, allowed))).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it('checkAllowedHost takes names and dotted names, and refuses anything else at start', () => {
    expect(['QA.test', ' .preview.test'].map(checkAllowedHost)).toEqual(['qa.test', '.preview.test']);
    for (const bad of ['', 'http://qa.test', 'qa.test:80', 'a b', '*.qa.test', '-qa.test'])
      expect(() => checkAllowedHost(bad)).toThrow(/--allowed-hosts/);
  });
});
