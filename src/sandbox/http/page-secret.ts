// The page secret under the form tokens (checkout/form-token.ts), read from the store once, as the
// app gets ready: a page's token is computed while the page renders, which awaits nothing, and the
// store answers asynchronously. The secret never changes while the database is open
// (store/page-secret.ts), and no route answers before the app is ready.
import type { FastifyInstance } from 'fastify';
import type { SandboxStore } from '../store/store.js';

export function pageSecretOnReady(app: FastifyInstance, store: SandboxStore): () => Buffer {
  let secret: Buffer | undefined;
  app.addHook('onReady', async () => {
    secret = await store.pageSecret.get();
  });
  return () => {
    if (secret === undefined) throw new Error('The page secret is read as the app gets ready: it is not ready yet.');
    return secret;
  };
}
