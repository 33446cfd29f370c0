// The rate limit as a sandbox applies it (the rule: domain/rate-limit.ts). The bucket of each key is
// in the database, shared by every sandbox on it; this sandbox takes its tokens a few at a time (a
// tenth of a second's worth) and spends them from memory, so that a request costs a map lookup, and
// a read of the database only once per few requests. Tokens taken and not spent within a second
// are dropped, never given back: a sandbox can only under-use the limit, never exceed it. While a
// key's bucket is empty, its requests are refused from memory, with no read at all, until a token is due.
import { type RateLimit, secondsUntilToken } from '../domain/rate-limit.js';
import type { SandboxStore } from '../store/store.js';
import { hashKey } from './key-text.js';

/** How long tokens taken from the database may be spent before they are dropped. */
export const HOLD_MS = 1_000;

export type RateDecision =
  | { allowed: true }
  | {
      allowed: false;
      /** Whole seconds until the key's bucket holds a token. */
      retryAfter: number;
      /** The tokens the bucket held when it was last read (less than one). */
      tokens: number;
    };

interface Held {
  /** Tokens this sandbox may still spend. */
  tokens: number;
  /** When the database's answer came (Unix ms): HOLD_MS later, what is left is dropped. */
  takenAtMs: number;
  /** The bucket's tokens in the database after the withdrawal. */
  bucketTokens: number;
}

export class RateLimiter {
  private readonly held = new Map<string, Held>();
  private readonly refills = new Map<string, Promise<void>>();
  /** Tokens taken from the database at a time: a tenth of a second's worth, at least one. */
  private readonly batch: number;

  constructor(
    private readonly store: SandboxStore,
    readonly limit: RateLimit,
    private readonly now: () => number = Date.now,
  ) {
    this.batch = Math.max(1, Math.ceil(limit.perSecond / 10));
  }

  /** Spends one of the key's tokens held in memory: false when there is none to spend without a read. */
  spend(key: string): boolean {
    const held = this.held.get(key);
    if (held === undefined || held.tokens < 1 || this.now() >= held.takenAtMs + HOLD_MS) return false;
    held.tokens--;
    return true;
  }

  /** Spends one of the key's tokens, or says when one will be there. */
  async take(key: string): Promise<RateDecision> {
    // A refill another request began may be spent before this one's turn: three looks at most.
    for (let look = 0; look < 3; look++) {
      const nowMs = this.now();
      const held = this.held.get(key);
      const fresh = held !== undefined && nowMs < held.takenAtMs + HOLD_MS;
      if (fresh && held.tokens >= 1) {
        held.tokens--;
        return { allowed: true };
      }
      // The bucket was empty when last read, and no token is due yet: refused from memory.
      if (fresh && held.bucketTokens < 1 && nowMs < held.takenAtMs + this.msUntilToken(held.bucketTokens))
        return this.refused(held);
      if (look < 2) await this.refill(key);
    }
    return this.refused(this.held.get(key)!);
  }

  private msUntilToken(tokens: number): number {
    return ((1 - tokens) * 1000) / this.limit.perSecond;
  }

  private refused(held: Held): RateDecision {
    return { allowed: false, retryAfter: secondsUntilToken(held.bucketTokens, this.limit), tokens: held.bucketTokens };
  }

  /** One withdrawal per key at a time: requests that find the tokens spent meanwhile wait for the same one. */
  private refill(key: string): Promise<void> {
    let refill = this.refills.get(key);
    if (!refill) {
      const nowMs = this.now();
      refill = this.store.rateBuckets
        .withdraw(hashKey(key), this.limit, this.batch, nowMs)
        .then(({ granted, tokens }) => {
          // Held from when they arrive: a withdrawal slower than the hold would otherwise bring back
          // tokens already dropped, and refuse a key whose bucket holds plenty.
          this.held.set(key, { tokens: granted, takenAtMs: this.now(), bucketTokens: tokens });
        })
        .finally(() => this.refills.delete(key));
      this.refills.set(key, refill);
    }
    return refill;
  }
}
