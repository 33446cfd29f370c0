// What an operator does with the API keys, whether from the command line (cli/keys.ts) or through
// the admin helpers (http/handlers/helper-api/admin-keys.ts). Each runs inside its caller's write
// transaction, so that every sandbox on the database sees all of it at its next request, or none.
// A refusal is the helpers' own (InvalidRequest, InvalidState, NotFound), which the command line
// prints as its message.
import {
  channelNameProblem,
  DEFAULT_OVERLAP_SECONDS,
  type KeyScope,
  keyHint,
  type ManagedKey,
  overlapProblem,
  rotationEnd,
} from '../domain/api-keys.js';
import { helperRefusal, notFound, quoted } from '../domain/errors.js';
import { randomIds } from '../ids.js';
import type { SandboxStore } from '../store/store.js';
import { hashKey, newKeyId, newKeyText } from './key-text.js';

/** A key as it is made: listed, with the key itself, shown this once. */
export interface MadeKey extends ManagedKey {
  key: string;
}

const wallClock = () => new Date().toISOString();

async function make(store: SandboxStore, channel: string | null, now: string): Promise<MadeKey> {
  const key = newKeyText();
  const made: ManagedKey = {
    id: newKeyId(),
    channel,
    hint: keyHint(key),
    created_at: now,
    expires_at: null,
    revoked_at: null,
  };
  await store.apiKeys.insert({ ...made, hash: hashKey(key) });
  return { ...made, key };
}

/** A new key for `scope`: a channel's (which starts with the seed catalog if it is new), or an admin key. */
export async function createKey(store: SandboxStore, scope: KeyScope, now = wallClock()): Promise<MadeKey> {
  if (scope.kind === 'admin') return make(store, null, now);
  const { channel } = scope;
  const problem = channelNameProblem(channel);
  if (problem) throw helperRefusal('InvalidRequest', `channel ${quoted(channel)}: ${problem}`);
  // As the channels of the keys fixed at start do (http/app.ts); a channel that has a catalog keeps it.
  await store.catalog.seed(channel, await store.clock.now(channel), () => `prod_${randomIds.short()}`);
  return make(store, channel, now);
}

/** The key under `id`, or NotFound. */
async function existing(store: SandboxStore, id: string): Promise<ManagedKey> {
  const key = await store.apiKeys.get(id);
  if (!key) throw notFound(`No API key ${quoted(id)}.`);
  return key;
}

/**
 * A new key for the holder of key `id`, which stays valid `overlapSeconds` more. A key is rotated
 * once: a revoked or ended key is not (its channel may have others), nor one rotated already,
 * which has its successor; a rotation asked for again (a retry whose answer was lost) would make
 * one more active key that nobody was shown.
 */
export async function rotateKey(
  store: SandboxStore,
  id: string,
  overlapSeconds = DEFAULT_OVERLAP_SECONDS,
  now = wallClock(),
): Promise<{ key: MadeKey; previous: ManagedKey }> {
  const problem = overlapProblem(overlapSeconds);
  if (problem) throw helperRefusal('InvalidRequest', problem);
  const old = await existing(store, id);
  const anew = old.channel === null ? 'create a new admin key' : `create a new key for channel ${old.channel}`;
  if (old.revoked_at !== null || (old.expires_at !== null && old.expires_at <= now))
    throw helperRefusal('InvalidState', `API key ${id} has ended already; ${anew}.`);
  if (old.expires_at !== null)
    throw helperRefusal(
      'InvalidState',
      `API key ${id} was rotated already and ends at ${old.expires_at}: its successor serves beside it. Rotate ` +
        `the successor (keys list shows it), or revoke ${id} to end it now.`,
    );
  const expiresAt = rotationEnd(now, overlapSeconds);
  await store.apiKeys.end(id, expiresAt);
  const key = await make(store, old.channel, now);
  return { key, previous: { ...old, expires_at: expiresAt } };
}

/** Ends key `id` at once. Revoking a revoked key is refused, so that a mistyped id is noticed. */
export async function revokeKey(store: SandboxStore, id: string, now = wallClock()): Promise<ManagedKey> {
  const key = await existing(store, id);
  if (!(await store.apiKeys.revoke(id, now)))
    throw helperRefusal('InvalidState', `API key ${id} was revoked already, at ${key.revoked_at}.`);
  return { ...key, revoked_at: now };
}
