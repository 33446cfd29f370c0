// The cached facts never answer other than the database, whatever runs at once: two sandboxes on
// one database run reads and writes concurrently, at random, and inside each transaction every
// cached answer equals what the transaction itself reads from the table (its snapshot, for a read;
// the latest commit and its own writes, for a write).
import { describe, expect, it } from 'vitest';
import type { Features } from '../../src/sandbox/domain/types.js';
import type { PostgresCore } from '../../src/sandbox/store/postgres/core.js';
import { twoSandboxes } from './core-support.js';

const CHANNELS = ['dev', 'other'];

/** A small deterministic generator, so that a failure can be run again. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

async function stored(core: PostgresCore, channel: string): Promise<Features> {
  const row = await core.q.one<{ authorization_enabled: boolean; tokenization_enabled: boolean }>(
    'SELECT authorization_enabled, tokenization_enabled FROM channel_features WHERE channel = $1',
    [channel],
  );
  return row
    ? { authorization: row.authorization_enabled, tokenization: row.tokenization_enabled }
    : { authorization: true, tokenization: true };
}

async function storedOffset(core: PostgresCore, channel: string): Promise<number> {
  const ms = await core.q.value<number>('SELECT offset_ms FROM channel_clocks WHERE channel = $1', [channel]);
  return Math.floor((ms ?? 0) / 1000);
}

describe('the cached facts under concurrent reads and writes of two sandboxes', () => {
  it('always answer what the transaction reads from the tables', async () => {
    const sandboxes = await twoSandboxes('cache_coherence');
    const next = random(20_261_128);
    const mismatches: string[] = [];
    const check = async (core: PostgresCore, channel: string, what: string) => {
      const cached = await core.features.get(channel);
      const direct = await stored(core, channel);
      if (JSON.stringify(cached) !== JSON.stringify(direct))
        mismatches.push(`${what} features ${JSON.stringify(cached)} != ${JSON.stringify(direct)}`);
      const offset = await core.clock.offsetSeconds(channel);
      const directOffset = await storedOffset(core, channel);
      if (offset !== directOffset) mismatches.push(`${what} clock ${offset} != ${directOffset}`);
    };
    const operation = (i: number) => {
      const core = sandboxes[Math.floor(next() * 2)]!;
      const channel = CHANNELS[Math.floor(next() * 2)]!;
      const kind = next();
      const features = { authorization: next() < 0.5, tokenization: next() < 0.5 };
      const pause = () => new Promise((resolve) => setTimeout(resolve, Math.floor(next() * 3)));
      if (kind < 0.5)
        return core.read(async () => {
          await check(core, channel, `read ${i}`);
          await pause();
          await check(core, channel, `read ${i} again`);
        });
      const write = kind < 0.8 ? core.transaction : core.write;
      return write(async () => {
        await check(core, channel, `write ${i} before`);
        if (next() < 0.5) await core.features.set(channel, features);
        else await core.clock.advance(channel, 1);
        await pause();
        await check(core, channel, `write ${i} after`);
      });
    };
    for (let round = 0; round < 10; round++) await Promise.all(Array.from({ length: 30 }, (_, i) => operation(i)));
    expect(mismatches).toEqual([]);
  });
});
