// The helper API's Administration handlers (openapi/sandbox.yaml, Administration): the managed API
// keys, listed, made, rotated and revoked through an admin key (keys/manage.ts holds the rules, the
// same as the command line's). They act for no channel: their context's channel is empty.
import { ADMIN_SCOPE, channelScope, keyState, type ManagedKey } from '../../../domain/api-keys.js';
import { helperRefusal } from '../../../domain/errors.js';
import { createKey, type MadeKey, revokeKey, rotateKey } from '../../../keys/manage.js';
import type { Handlers, HelperOperations } from '../../operation-types.js';

/** A key as the helpers show it, with where it stands now (real time). */
const shown = (key: ManagedKey, now: string) => ({
  id: key.id,
  channel: key.channel,
  hint: key.hint,
  state: keyState(key, now),
  created_at: key.created_at,
  expires_at: key.expires_at,
  revoked_at: key.revoked_at,
});

const shownWithKey = (made: MadeKey, now: string) => ({ key: made.key, ...shown(made, now) });

const wallClock = () => new Date().toISOString();

export function adminKeyHandlers(): Handlers<HelperOperations> {
  return {
    async listApiKeys({ query }, store) {
      if (query.admin === true && query.channel !== undefined)
        throw helperRefusal('InvalidRequest', 'Give channel or admin=true, not both.');
      const channel = query.admin === true ? null : query.channel;
      const page = await store.apiKeys.list({
        ...(channel !== undefined ? { channel } : {}),
        ...(query.after !== undefined ? { after: Number(query.after) } : {}),
        limit: query.limit ?? 100,
      });
      const now = wallClock();
      return {
        keys: page.keys.map((key) => shown(key, now)),
        next_after: page.next === undefined ? null : String(page.next),
      };
    },

    async createApiKey({ body }, store) {
      const now = wallClock();
      return shownWithKey(
        await createKey(store, body.channel === null ? ADMIN_SCOPE : channelScope(body.channel), now),
        now,
      );
    },

    async rotateApiKey({ path, body }, store) {
      const now = wallClock();
      const rotated = await rotateKey(store, path.key_id, body?.overlap_seconds, now);
      return { key: shownWithKey(rotated.key, now), previous: shown(rotated.previous, now) };
    },

    async revokeApiKey({ path }, store) {
      const now = wallClock();
      return shown(await revokeKey(store, path.key_id, now), now);
    },
  };
}
