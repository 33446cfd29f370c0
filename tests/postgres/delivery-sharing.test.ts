// Several sandboxes on one PostgreSQL database share its delivery queue: each delivery is claimed
// by one of them under a lease, sent once per endpoint, and taken up by another once the lease of
// a sandbox that stopped answering has ended. Each sandbox here is a store, and a pool, of its own.
import { describe } from 'vitest';
import { createPostgresStore } from '../../src/sandbox/store/postgres/index.js';
import { sharedDeliveryRules } from '../support/shared-delivery.js';
import { testDatabase } from '../support/postgres-database.js';

let made = 0;

describe('two sandboxes on one PostgreSQL database', () => {
  sharedDeliveryRules(async () => {
    const url = await testDatabase(`delivery_sharing_${++made}`);
    const [a, b] = await Promise.all([createPostgresStore(url), createPostgresStore(url)]);
    return {
      a,
      b,
      async close() {
        await Promise.all([a.close(), b.close()]);
      },
    };
  });
});
