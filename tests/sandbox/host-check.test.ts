// The names the sandbox answers to (http/allowed-hosts.ts), against DNS rebinding: a page whose
// name is re-pointed at the sandbox arrives with its own Host, and is refused before anything runs.
import { afterEach, describe, expect, it } from 'vitest';
import { buildSandbox } from '../../src/sandbox/http/app.js';
import { checkAllowedHost, hostAllowed, hostnameOf } from '../../src/sandbox/http/allowed-hosts.js';
import { createStore, openDatabase } from '../../src/sandbox/store/index.js';

const KEY = { 'x-service-api-key': 'sandbox-dev-key' };
const opened: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => { for (const app of opened.splice(0)) await app.close(); });

function sandbox(options: { publicUrl?: string; allowedHosts?: string[] } = {}) {
  const app = buildSandbox({ store: createStore(openDatabase(':memory:')), ...options });
  opened.push(app);
  return (host: string | undefined, url = '/payments/v1/payment_sessions', method: 'GET' | 'POST' | 'OPTIONS' = 'GET') =>
    app.inject({ method, url, headers: { ...KEY, ...(host !== undefined ? { host } : {}) } });
}

describe('a Host the sandbox is not reached by', () => {
  it('attacker.example:4721 with the published key answers 403 Forbidden in the contract\'s shape, not 200', async () => {
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

  it.each(['localhost.attacker.example', 'attacker.example.', '127.0.0.1.nip.io', 'sandbox.test', 'a b', ':4010', '[::1', 'x'.repeat(300)])('refuses %j', async (host) => {
    const reply = await sandbox()(host);
    expect(reply.statusCode).toBe(403);
    expect(reply.json().message.length).toBeLessThan(600);
  });
});

describe('the names the sandbox answers to', () => {
  it.each(['127.0.0.1:4010', 'localhost:4010', 'LOCALHOST', 'localhost', 'api.localhost:4010', '[::1]:4010', '10.1.2.3', '[fe80::1]'])('an IP address or localhost: %s', async (host) => {
    expect((await sandbox()(host)).statusCode).toBe(200);
  });

  it('the public URL\'s host', async () => {
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

describe('the rules', () => {
  it.each([
    ['localhost:4010', 'localhost'], ['[::1]:4010', '::1'], ['Example.COM.', 'example.com'], ['10.0.0.1', '10.0.0.1'],
    ['a:b:c', undefined], ['[x]', undefined], ['', undefined], ['host:123456', undefined],
  ])('hostnameOf(%j) is %j', (host, name) => {
    expect(hostnameOf(host)).toBe(name);
  });

  it('hostAllowed reads names case-insensitively and compares subdomains on a dot', () => {
    const allowed = { publicHost: 'pub.example', names: ['exact.test', '.wild.test'] };
    expect(['PUB.example', 'exact.test', 'a.wild.test', 'wild.test'].map((h) => hostAllowed(h, allowed))).toEqual([true, true, true, true]);
    expect(['a.exact.test', 'xwild.test', 'pub.example.evil', ''].map((h) => hostAllowed(h, allowed))).toEqual([false, false, false, false]);
  });

  it('checkAllowedHost takes names and dotted names, and refuses anything else at start', () => {
    expect(['QA.test', ' .preview.test'].map(checkAllowedHost)).toEqual(['qa.test', '.preview.test']);
    for (const bad of ['', 'http://qa.test', 'qa.test:80', 'a b', '*.qa.test', '-qa.test']) expect(() => checkAllowedHost(bad)).toThrow(/--allowed-hosts/);
  });
});
