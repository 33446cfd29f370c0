// API keys map to sales channels. Whether a request needs a key is a property of the route it
// matched (its config), never of how its URL is spelled: the router has already decoded the URL,
// so `/%70ayments/...` and an absolute-form request line reach the same route and the same check.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type KeyScope, MANAGED_KEY_PREFIX } from '../domain/api-keys.js';
import { hashKey } from '../keys/key-text.js';
import type { SandboxStore } from '../store/store.js';
import { adminUnauthorized, unauthorized } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The sales channel of the request's API key; empty until the key is checked. */
    channel: string;
  }
  interface FastifyContextConfig {
    /** The route belongs to the contract or to the helpers: it runs only with a known API key. */
    requiresKey?: boolean;
    /** The route is the operator's (the admin helpers, /metrics): it runs only with an admin key. */
    requiresAdmin?: boolean;
    /** The route answers 405: these are the methods its path allows. */
    allowedMethods?: string[];
  }
}

export const API_KEY_HEADER = 'x-service-api-key';

/**
 * Checks each request's key. A route of the contract or the helpers takes a channel's key: one
 * fixed at start (the development keys, or SANDBOX_API_KEYS) from memory, or one an operator
 * manages (keys/manage.ts) from the store, by its hash, as valid now. A route of the operator's
 * (the admin helpers, /metrics) takes a managed admin key as a bearer token, as Prometheus sends one.
 */
export function registerAuth(app: FastifyInstance, keys: ReadonlyMap<string, string>, store: SandboxStore): void {
  app.decorateRequest('channel', '');
  // onRequest runs after routing and before the body is read: an unauthenticated body is never parsed.
  app.addHook('onRequest', (request, _reply, done) => {
    const { config } = request.routeOptions;
    if (config.requiresAdmin === true) {
      const token = bearerToken(request.headers.authorization);
      if (token === undefined) return done(adminUnauthorized(request.headers.authorization !== undefined));
      managedKeyScope(store, token).then(
        (scope) => done(scope?.kind === 'admin' ? undefined : adminUnauthorized(true)),
        done,
      );
      return;
    }
    if (config.requiresKey !== true) return done();
    const key = request.headers[API_KEY_HEADER];
    const fixed = typeof key === 'string' ? keys.get(key) : undefined;
    if (fixed) {
      request.channel = fixed;
      return done();
    }
    if (typeof key !== 'string') return done(unauthorized(key !== undefined, API_KEY_HEADER));
    managedKeyScope(store, key).then((scope) => {
      // An admin key is no channel's: it is refused here as an unknown one is.
      if (scope?.kind !== 'channel') return done(unauthorized(true, API_KEY_HEADER));
      request.channel = scope.channel;
      done();
    }, done);
  });
}

/** The token of `Authorization: Bearer <token>`, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
  return match?.[1];
}

/** What a managed key lets its bearer do now, as the database says after every sandbox's last commit. */
async function managedKeyScope(store: SandboxStore, key: string): Promise<KeyScope | undefined> {
  // Only a key that can be a managed one costs a read of the store.
  if (!key.startsWith(MANAGED_KEY_PREFIX)) return undefined;
  await store.revalidate();
  return store.apiKeys.scopeOf(hashKey(key), new Date().toISOString());
}

/** The request's channel; refuses to go on without one, so that no work ever runs in channel "". */
export function channelOf(request: FastifyRequest): string {
  if (!request.channel) throw unauthorized(request.headers[API_KEY_HEADER] !== undefined, API_KEY_HEADER);
  return request.channel;
}

/** SANDBOX_API_KEYS=none: no key is fixed at start, only the keys an operator manages serve (keys/manage.ts). */
export const NO_FIXED_KEYS = 'none';

/** Parses `key:channel,key:channel` (the SANDBOX_API_KEYS variable), or `none`. */
export function parseApiKeys(text: string): Map<string, string> {
  const keys = new Map<string, string>();
  if (text.trim() === NO_FIXED_KEYS) return keys;
  for (const pair of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [key, channel, ...rest] = pair.split(':');
    if (!key || !channel || rest.length > 0)
      throw new Error(`SANDBOX_API_KEYS entry ${JSON.stringify(pair)} is not key:channel`);
    keys.set(key, channel);
  }
  return keys;
}

export const DEFAULT_API_KEYS = new Map([
  ['sandbox-dev-key', 'dev'],
  ['sandbox-other-key', 'other'],
]);
