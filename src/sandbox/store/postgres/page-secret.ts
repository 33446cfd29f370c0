// The secret that signs the hosted pages' form tokens (../page-secret.ts): one per database, made
// by its first migration, so that a page rendered by one sandbox submits through any other.
import type { PgQueries } from './queries.js';

export function pageSecretRepository(q: PgQueries) {
  let secret: Buffer | undefined;
  return {
    /** Read once: it never changes while the database lives (a reset keeps it). */
    async get(): Promise<Buffer> {
      secret ??= await q.value<Buffer>('SELECT secret FROM page_secret WHERE id = 1');
      return secret!;
    },
  };
}
