// The secret that signs the hosted pages' form tokens (checkout/form-token.ts): one per database,
// made with it, so that a page rendered before a restart, or by another sandbox on the same file,
// still submits. A reset keeps it: it deletes data, and ids are never reused.
import type { Db } from './database.js';

export function pageSecretRepository(db: Db) {
  const read = db.prepare('SELECT secret FROM page_secret WHERE id = 1').pluck();
  let secret: Buffer | undefined;
  return {
    /** Read once: it never changes while the database is open. */
    get(): Buffer {
      secret ??= read.get() as Buffer;
      return secret;
    },
  };
}
