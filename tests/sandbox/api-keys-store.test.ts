// The SQLite store's managed API keys (store/api-keys.ts): a listing pages through the keys in the
// order they were made, its cursor the last key of the page; a key found is kept in the fact cache,
// so a request reads it from memory until the store next looks for another connection's commit,
// and then sees that commit (another sandbox's revocation) at once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { channelScope, type ManagedKey } from '../../src/sandbox/domain/api-keys.js';
import type { NewManagedKey } from '../../src/sandbox/store/api-keys.js';
import { openDatabase } from '../../src/sandbox/store/database.js';
import { createStore } from '../../src/sandbox/store/index.js';

const closers: Array<() => void> = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

const MADE = '2026-01-01T00:00:00.000Z';
const NOW = '2026-01-02T00:00:00.000Z';

function newKey(n: number, channel: string | null): NewManagedKey {
  return {
    id: `key_${n}`,
    channel,
    hash: `hash_${n}`,
    hint: `h${n}`.padStart(4, '0'),
    created_at: MADE,
    expires_at: null,
    revoked_at: null,
  };
}

const ids = (keys: ManagedKey[]) => keys.map((key) => key.id);

describe('a listing of managed keys (SQLite)', () => {
  it('pages in the order the keys were made, the next page starting after the last key shown', () => {
    const db = openDatabase(':memory:');
    closers.push(() => db.close());
    const { apiKeys } = createStore(db);
    for (let n = 1; n <= 5; n++) apiKeys.insert(newKey(n, n === 4 ? null : 'alpha'));

    const first = apiKeys.list({ limit: 3 });
    expect(ids(first.keys)).toEqual(['key_1', 'key_2', 'key_3']);
    expect(first.next).toBeDefined();
    const second = apiKeys.list({ limit: 3, after: first.next });
    expect(ids(second.keys)).toEqual(['key_4', 'key_5']);
    expect(second.next).toBeUndefined();

    const alpha = apiKeys.list({ channel: 'alpha', limit: 2 });
    expect(ids(alpha.keys)).toEqual(['key_1', 'key_2']);
    expect(ids(apiKeys.list({ channel: 'alpha', limit: 2, after: alpha.next }).keys)).toEqual(['key_3', 'key_5']);
  });
});

describe("a managed key's facts (SQLite)", () => {
  it('are kept once read, until the store looks again for another connection commit, which it then sees', () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'api-keys-store-'));
    const file = path.join(folder, 'sandbox.db');
    const [dbA, dbB] = [openDatabase(file), openDatabase(file)];
    closers.push(() => {
      dbA.close();
      dbB.close();
      rmSync(folder, { recursive: true, force: true });
    });
    const [sandboxA, sandboxB] = [createStore(dbA), createStore(dbB)];
    sandboxA.apiKeys.insert(newKey(1, 'alpha'));
    expect(sandboxA.apiKeys.scopeOf('hash_1', NOW)).toEqual(channelScope('alpha'));

    // Another sandbox on the file revokes it: this one answers from memory until it looks again.
    expect(sandboxB.apiKeys.revoke('key_1', NOW)).toBe(true);
    expect(sandboxA.apiKeys.scopeOf('hash_1', NOW)).toEqual(channelScope('alpha'));
    sandboxA.revalidate();
    expect(sandboxA.apiKeys.scopeOf('hash_1', NOW)).toBeUndefined();
  });

  it('are not kept for a key that does not exist: a key made later serves at once', () => {
    const db = openDatabase(':memory:');
    closers.push(() => db.close());
    const { apiKeys } = createStore(db);
    expect(apiKeys.scopeOf('hash_9', NOW)).toBeUndefined();
    apiKeys.insert(newKey(9, 'alpha'));
    expect(apiKeys.scopeOf('hash_9', NOW)).toEqual(channelScope('alpha'));
  });
});
