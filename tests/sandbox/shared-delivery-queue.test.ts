// Several sandboxes on one SQLite file share its delivery queue: each delivery is claimed by one of
// them under a lease (BEGIN IMMEDIATE serializes the claims), sent once per endpoint, and taken up
// by another once the lease of a sandbox that stopped answering has ended. Each sandbox here is a
// connection of its own to the file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe } from 'vitest';
import { openDatabase } from '../../src/sandbox/store/database.js';
import { createStore } from '../../src/sandbox/store/index.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';
import { sharedDeliveryRules } from '../support/shared-delivery.js';

describe('two sandboxes on one SQLite file', () => {
  sharedDeliveryRules(async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'shared-delivery-'));
    const file = path.join(folder, 'sandbox.db');
    const [dbA, dbB] = [openDatabase(file), openDatabase(file)];
    return {
      a: sqliteBackend(createStore(dbA)),
      b: sqliteBackend(createStore(dbB)),
      async close() {
        dbA.close();
        dbB.close();
        rmSync(folder, { recursive: true, force: true });
      },
    };
  });
});
