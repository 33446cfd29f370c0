// The PostgreSQL store's managed API keys (store/postgres/api-keys.ts), beside the SQLite twin's
// (tests/sandbox/api-keys-store.test.ts): a listing pages through the keys in the order they were
// made, of one channel, of the admin keys or of all, its cursor the last key of a page that has more
// after it; a rotation's end applies from the next look, though the key's facts were kept; a
// revocation of a key already revoked changes nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_SCOPE, channelScope, type ManagedKey } from '../../src/sandbox/domain/api-keys.js';
import type { NewManagedKey } from '../../src/sandbox/store/api-keys.js';
import { createPostgresStore, type PostgresStore } from '../../src/sandbox/store/postgres/index.js';
import type { ApiKeysRepository } from '../../src/sandbox/store/store.js';
import { testDatabase } from '../support/postgres-database.js';

const stores: PostgresStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

async function openStore(label: string): Promise<PostgresStore> {
  const store = await createPostgresStore(await testDatabase(label));
  stores.push(store);
  return store;
}

const MADE = '2026-01-01T00:00:00.000Z';
const NOW = '2026-01-02T00:00:00.000Z';
const LATER = '2026-01-03T00:00:00.000Z';

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

/** Keys 1 to 5, made in that order: 1, 2, 3 and 5 of channel alpha, 4 an admin key. */
async function fiveKeys(apiKeys: ApiKeysRepository): Promise<void> {
  for (let n = 1; n <= 5; n++) await apiKeys.insert(newKey(n, n === 4 ? null : 'alpha'));
}

describe('a listing of managed keys (PostgreSQL)', () => {
  it('pages through every key in the order made, the next page starting after the last key shown', async () => {
    const { apiKeys } = await openStore('api_keys_pages');
    await fiveKeys(apiKeys);
    const first = await apiKeys.list({ limit: 3 });
    expect(ids(first.keys)).toEqual(['key_1', 'key_2', 'key_3']);
    expect(first.next).toBeDefined();
    const second = await apiKeys.list({ limit: 3, after: first.next });
    expect(ids(second.keys)).toEqual(['key_4', 'key_5']);
    expect(second.next).toBeUndefined();
  });

  it('gives no cursor when the page holds exactly the keys left', async () => {
    const { apiKeys } = await openStore('api_keys_exact_page');
    await fiveKeys(apiKeys);
    const whole = await apiKeys.list({ limit: 5 });
    expect(ids(whole.keys)).toEqual(['key_1', 'key_2', 'key_3', 'key_4', 'key_5']);
    expect(whole).not.toHaveProperty('next');
  });

  it("of one channel gives that channel's keys only, and of channel null the admin keys only", async () => {
    const { apiKeys } = await openStore('api_keys_channels');
    await fiveKeys(apiKeys);
    const alpha = await apiKeys.list({ channel: 'alpha', limit: 2 });
    expect(ids(alpha.keys)).toEqual(['key_1', 'key_2']);
    expect(ids((await apiKeys.list({ channel: 'alpha', limit: 2, after: alpha.next })).keys)).toEqual([
      'key_3',
      'key_5',
    ]);
    expect(ids((await apiKeys.list({ channel: null, limit: 10 })).keys)).toEqual(['key_4']);
    expect((await apiKeys.list({ channel: 'beta', limit: 10 })).keys).toEqual([]);
  });
});

describe('a managed key (PostgreSQL)', () => {
  it('ended by a rotation serves until its end, though it was looked up before, and is listed with it', async () => {
    const store = await openStore('api_keys_end');
    const { apiKeys } = store;
    // As a request starts: the cache looks at the revision, and keeps what is read from then on.
    await store.revalidate();
    await apiKeys.insert(newKey(1, 'alpha'));
    await apiKeys.insert(newKey(2, null));
    expect(await apiKeys.scopeOf('hash_1', NOW)).toEqual(channelScope('alpha'));
    expect(await apiKeys.scopeOf('hash_2', NOW)).toEqual(ADMIN_SCOPE);

    await apiKeys.end('key_1', LATER);
    expect(await apiKeys.scopeOf('hash_1', NOW)).toEqual(channelScope('alpha'));
    expect(await apiKeys.scopeOf('hash_1', LATER)).toBeUndefined();
    expect(await apiKeys.get('key_1')).toMatchObject({ expires_at: LATER, revoked_at: null });
    // The other key is untouched.
    expect(await apiKeys.get('key_2')).toMatchObject({ expires_at: null });
    expect(await apiKeys.scopeOf('hash_2', LATER)).toEqual(ADMIN_SCOPE);

    // Ending a key that does not exist changes nothing.
    await apiKeys.end('key_9', NOW);
    expect(await apiKeys.scopeOf('hash_1', NOW)).toEqual(channelScope('alpha'));
  });

  it('revoked is refused at once; revoked again, it answers false and stays revoked', async () => {
    const store = await openStore('api_keys_revoke');
    const { apiKeys } = store;
    await store.revalidate();
    await apiKeys.insert(newKey(1, 'alpha'));
    expect(await apiKeys.scopeOf('hash_1', NOW)).toEqual(channelScope('alpha'));
    expect(await apiKeys.revoke('key_1', NOW)).toBe(true);
    expect(await apiKeys.scopeOf('hash_1', NOW)).toBeUndefined();
    expect(await apiKeys.revoke('key_1', LATER)).toBe(false);
    expect(await apiKeys.get('key_1')).toMatchObject({ revoked_at: NOW });
    expect(await apiKeys.revoke('key_9', NOW)).toBe(false);
  });
});
