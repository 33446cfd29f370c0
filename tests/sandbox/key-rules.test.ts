// The rules of the managed keys (keys/manage.ts) an operator reads in the answers: a refused channel
// name says which name and why; a new channel's seed catalog has product ids like every channel's;
// a key whose end has come is ended, not "rotated already", from the very instant of its end.
import { afterEach, describe, expect, it } from 'vitest';
import { channelScope } from '../../src/sandbox/domain/api-keys.js';
import { buildSandbox } from '../../src/sandbox/http/app.js';
import { createKey, rotateKey } from '../../src/sandbox/keys/manage.js';
import { openDatabase } from '../../src/sandbox/store/database.js';
import { createStore } from '../../src/sandbox/store/index.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function sandbox() {
  const db = openDatabase(':memory:');
  const store = sqliteBackend(createStore(db));
  const app = buildSandbox({ store });
  closers.push(async () => {
    await app.close();
    db.close();
  });
  return { store, app };
}

const NOW = '2026-03-01T12:00:00.000Z';
const LATER = '2026-03-01T12:01:00.000Z';

describe('a managed key', () => {
  it('refused for its channel name, names the channel and says what a name is', async () => {
    const { store } = sandbox();
    await expect(createKey(store, channelScope('two words'))).rejects.toMatchObject({
      code: 'InvalidRequest',
      message:
        'channel "two words": a channel is 1 to 64 letters, digits, dots, dashes and underscores, starting with a letter or digit',
    });
  });

  it('made for a new channel gives it the seed catalog with product ids, each its own', async () => {
    const { store, app } = sandbox();
    const made = await createKey(store, channelScope('partner-a'));
    const listed = await app.inject({
      method: 'GET',
      url: '/api/v1/product_catalog/items/list',
      headers: { 'x-service-api-key': made.key },
    });
    const ids = (listed.json() as { data: Array<{ product_id: string }> }).data.map((item) => item.product_id);
    expect(ids.length).toBeGreaterThan(1);
    for (const id of ids) expect(id).toMatch(/^prod_[0-9a-f]{20}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('whose overlap ends at this very instant has ended: rotating it is refused as ended, not as rotated already', async () => {
    const { store } = sandbox();
    const made = await createKey(store, channelScope('partner-a'), NOW);
    await rotateKey(store, made.id, 0, NOW);
    await expect(rotateKey(store, made.id, 60, NOW)).rejects.toMatchObject({
      code: 'InvalidState',
      message: `API key ${made.id} has ended already; create a new key for channel partner-a.`,
    });
  });

  it('rotated and still within its overlap is refused as rotated already, not as ended', async () => {
    const { store } = sandbox();
    const made = await createKey(store, channelScope('partner-a'), NOW);
    const { previous } = await rotateKey(store, made.id, 120, NOW);
    await expect(rotateKey(store, made.id, 60, LATER)).rejects.toMatchObject({
      code: 'InvalidState',
      message: expect.stringContaining(`API key ${made.id} was rotated already and ends at ${previous.expires_at}`),
    });
  });
});
