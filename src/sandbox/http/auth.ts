// API keys map to sales channels. Whether a request needs a key is a property of the route it
// matched (its config), never of how its URL is spelled: the router has already decoded the URL,
// so `/%70ayments/...` and an absolute-form request line reach the same route and the same check.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MANAGED_KEY_PREFIX } from '../domain/api-keys.js';
import { hashKey } from '../keys/key-text.js';
import type { SandboxStore } from '../store/store.js';
import { unauthorized } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The sales channel of the request's API key; empty until the key is checked. */
    channel: string;
  }
  interface FastifyContextConfig {
    /** The route belongs to the contract or to the helpers: it runs only with a known API key. */
    requiresKey?: boolean;
    /** The route answers 405: these are the methods its path allows. */
    allowedMethods?: string[];
  }
}

export const API_KEY_HEADER = 'x-service-api-key';

/**
 * Checks each request's key: one fixed at start (the development keys, or SANDBOX_API_KEYS) from
 * memory, one an operator manages (keys/manage.ts) from the store, by its hash, as valid now.
 */
export function registerAuth(app: FastifyInstance, keys: ReadonlyMap<string, string>, store: SandboxStore): void {
  app.decorateRequest('channel', '');
  // onRequest runs after routing and before the body is read: an unauthenticated body is never parsed.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.routeOptions.config.requiresKey !== true) return done();
    const key = request.headers[API_KEY_HEADER];
    const fixed = typeof key === 'string' ? keys.get(key) : undefined;
    if (fixed) {
      request.channel = fixed;
      return done();
    }
    // Only a key that can be a managed one costs a read of the store.
    if (typeof key !== 'string' || !key.startsWith(MANAGED_KEY_PREFIX))
      return done(unauthorized(key !== undefined, API_KEY_HEADER));
    managedKeyChannel(store, key).then((channel) => {
      if (!channel) return done(unauthorized(true, API_KEY_HEADER));
      request.channel = channel;
      done();
    }, done);
  });
}

/** The channel of a managed key that serves now, as the database says after every sandbox's last commit. */
async function managedKeyChannel(store: SandboxStore, key: string): Promise<string | undefined> {
  await store.revalidate();
  return store.apiKeys.channelOf(hashKey(key), new Date().toISOString());
}

/** The request's channel; refuses to go on without one, so that no work ever runs in channel "". */
export function channelOf(request: FastifyRequest): string {
  if (!request.channel) throw unauthorized(request.headers[API_KEY_HEADER] !== undefined, API_KEY_HEADER);
  return request.channel;
}

/** Parses `key:channel,key:channel` (the SANDBOX_API_KEYS variable). */
export function parseApiKeys(text: string): Map<string, string> {
  const keys = new Map<string, string>();
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
