// API keys map to sales channels. The contract's and the helpers' routes need a known key.
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The sales channel of the request's API key. */
    channel: string;
  }
}

export const API_KEY_HEADER = 'x-service-api-key';
const PROTECTED = /^\/(payments|api|v1|sandbox\/v1)\//;

export function registerAuth(app: FastifyInstance, keys: ReadonlyMap<string, string>): void {
  app.decorateRequest('channel', '');
  app.addHook('onRequest', async (request, reply) => {
    if (!PROTECTED.test(request.url)) return;
    const key = request.headers[API_KEY_HEADER];
    const channel = typeof key === 'string' ? keys.get(key) : undefined;
    if (!channel) {
      return reply.code(401).send({
        error: 'Unauthorized',
        message: key === undefined ? `The ${API_KEY_HEADER} header is missing.` : `The ${API_KEY_HEADER} is not a known sandbox key.`,
      });
    }
    request.channel = channel;
  });
}

/** Parses `key:channel,key:channel` (the SANDBOX_API_KEYS variable). */
export function parseApiKeys(text: string): Map<string, string> {
  const keys = new Map<string, string>();
  for (const pair of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [key, channel] = pair.split(':');
    if (!key || !channel) throw new Error(`SANDBOX_API_KEYS entry ${JSON.stringify(pair)} is not key:channel`);
    keys.set(key, channel);
  }
  return keys;
}

export const DEFAULT_API_KEYS = new Map([
  ['sandbox-dev-key', 'dev'],
  ['sandbox-other-key', 'other'],
]);
