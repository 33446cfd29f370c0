// The API keys an operator manages while the sandbox runs (beside SANDBOX_API_KEYS and the
// development keys, which are fixed at start): each names one channel, or is an admin key (the
// operator's own, for the admin helpers and /metrics, with no channel); each is shown once as it is
// made, and is stored only as its hash. A rotation makes a new key and lets the old one live on for
// an overlap, so that clients can move to the new one without a refused request; a revocation ends
// a key at once.

/** What every managed key starts with: a reader of a log or a leak scanner can tell it for one. */
export const MANAGED_KEY_PREFIX = 'sk_sandbox_';

/** How long a rotated key stays valid beside its successor, unless the rotation says otherwise. */
export const DEFAULT_OVERLAP_SECONDS = 24 * 60 * 60;
/** The longest overlap a rotation may give: past it, rotating is only adding a key. */
export const MAX_OVERLAP_SECONDS = 30 * 24 * 60 * 60;

/** A channel's name as a managed key may give it: what SANDBOX_API_KEYS could write, kept printable. */
export const CHANNEL_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** A managed key as stored and listed: never the key itself. */
export interface ManagedKey {
  /** Its public name (`key_…`), to rotate or revoke it by. */
  id: string;
  /** The channel it acts for; null for an admin key. */
  channel: string | null;
  /** The key's last four characters, for a person to tell keys apart. */
  hint: string;
  created_at: string;
  /** When a rotation ends it (the overlap's end); null while it has no end. */
  expires_at: string | null;
  revoked_at: string | null;
}

export type ManagedKeyState = 'active' | 'expiring' | 'expired' | 'revoked';

/** Where the key stands at `now` (ISO 8601 instants compare as text). */
export function keyState(key: Pick<ManagedKey, 'expires_at' | 'revoked_at'>, now: string): ManagedKeyState {
  if (key.revoked_at !== null) return 'revoked';
  if (key.expires_at === null) return 'active';
  return key.expires_at > now ? 'expiring' : 'expired';
}

/** What a key that serves lets its bearer do: act for one channel, or administer the sandbox. */
export type KeyScope = { kind: 'channel'; channel: string } | { kind: 'admin' };

export const channelScope = (channel: string): KeyScope => ({ kind: 'channel', channel });
export const ADMIN_SCOPE: KeyScope = { kind: 'admin' };

export const scopeOf = (key: Pick<ManagedKey, 'channel'>): KeyScope =>
  key.channel === null ? { kind: 'admin' } : { kind: 'channel', channel: key.channel };

/** Whether a request carrying the key is served at `now`. */
export const keyServes = (key: Pick<ManagedKey, 'expires_at' | 'revoked_at'>, now: string): boolean => {
  const state = keyState(key, now);
  return state === 'active' || state === 'expiring';
};

/** The key a person is shown, made of random text given by the caller (the domain draws no randomness). */
export const managedKeyText = (randomText: string): string => `${MANAGED_KEY_PREFIX}${randomText}`;

export const keyHint = (key: string): string => key.slice(-4);

/** When a rotation ends the old key: `overlapSeconds` after `now`. */
export function rotationEnd(now: string, overlapSeconds: number): string {
  return new Date(Date.parse(now) + overlapSeconds * 1000).toISOString();
}

/** Why an overlap is refused, or undefined when it is a whole number of seconds within the bounds. */
export function overlapProblem(seconds: number): string | undefined {
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > MAX_OVERLAP_SECONDS)
    return `the overlap is a whole number of seconds from 0 to ${MAX_OVERLAP_SECONDS} (30 days)`;
  return undefined;
}

/** Why a channel's name is refused, or undefined. */
export function channelNameProblem(channel: string): string | undefined {
  if (!CHANNEL_NAME.test(channel))
    return 'a channel is 1 to 64 letters, digits, dots, dashes and underscores, starting with a letter or digit';
  return undefined;
}
