// Per-channel merchant features, armed faults, dispute lookup, and the sandbox clock.
import type { Features } from '../domain/types.js';
import type { Db } from './database.js';

export const DEFAULT_FEATURES: Features = { authorization: true, tokenization: true };

export function featuresRepository(db: Db) {
  const get = db.prepare('SELECT authorization_enabled, tokenization_enabled FROM channel_features WHERE channel = ?');
  const upsert = db.prepare(`INSERT INTO channel_features (channel, authorization_enabled, tokenization_enabled) VALUES (?, ?, ?)
    ON CONFLICT (channel) DO UPDATE SET authorization_enabled = excluded.authorization_enabled, tokenization_enabled = excluded.tokenization_enabled`);
  return {
    get(channel: string): Features {
      const row = get.get(channel) as { authorization_enabled: number; tokenization_enabled: number } | undefined;
      return row ? { authorization: row.authorization_enabled === 1, tokenization: row.tokenization_enabled === 1 } : { ...DEFAULT_FEATURES };
    },
    set(channel: string, features: Features): void {
      upsert.run(channel, features.authorization ? 1 : 0, features.tokenization ? 1 : 0);
    },
  };
}

export function faultsRepository(db: Db) {
  const arm = db.prepare(`INSERT INTO faults (channel, operation_id, status, remaining) VALUES (?, ?, ?, ?)
    ON CONFLICT (channel, operation_id) DO UPDATE SET status = excluded.status, remaining = excluded.remaining`);
  const get = db.prepare('SELECT status, remaining FROM faults WHERE channel = ? AND operation_id = ? AND remaining > 0');
  const spend = db.prepare('UPDATE faults SET remaining = remaining - 1 WHERE channel = ? AND operation_id = ?');
  return {
    arm(channel: string, operationId: string, status: 400 | 500, count: number): void {
      arm.run(channel, operationId, status, count);
    },
    /** Spends one armed fault of the operation; its status, or undefined when none is armed. */
    take(channel: string, operationId: string): 400 | 500 | undefined {
      const row = get.get(channel, operationId) as { status: 400 | 500; remaining: number } | undefined;
      if (!row) return undefined;
      spend.run(channel, operationId);
      return row.status;
    },
  };
}

export function disputesRepository(db: Db) {
  const insert = db.prepare('INSERT INTO disputes (dispute_id, channel, session_id) VALUES (?, ?, ?)');
  const sessionOf = db.prepare('SELECT session_id FROM disputes WHERE channel = ? AND dispute_id = ?').pluck();
  return {
    register(channel: string, disputeId: string, sessionId: string): void {
      insert.run(disputeId, channel, sessionId);
    },
    sessionOf(channel: string, disputeId: string): string | undefined {
      return sessionOf.get(channel, disputeId) as string | undefined;
    },
  };
}

/**
 * The sandbox clock of each channel: real time plus an offset that helpers advance (for hold
 * expiry). Per channel, so that one team's test cannot expire another team's holds.
 */
/** Stored times are compared as ISO 8601 text, which orders correctly only up to year 9999. */
export const LAST_CLOCK_TIME = Date.parse('9999-12-31T23:59:59.999Z');

export function clockRepository(db: Db, realNow: () => number = Date.now) {
  const read = db.prepare('SELECT offset_ms FROM channel_clocks WHERE channel = ?').pluck();
  const advance = db.prepare(`INSERT INTO channel_clocks (channel, offset_ms) VALUES (?, ?)
    ON CONFLICT (channel) DO UPDATE SET offset_ms = offset_ms + excluded.offset_ms`);
  const offset = (channel: string) => (read.get(channel) as number | undefined) ?? 0;
  return {
    // A clock advanced to the end of year 9999 stays there, though real time goes on.
    now: (channel: string) => new Date(Math.min(realNow() + offset(channel), LAST_CLOCK_TIME)).toISOString(),
    offsetSeconds: (channel: string) => Math.floor(offset(channel) / 1000),
    advance(channel: string, seconds: number): void {
      advance.run(channel, seconds * 1000);
    },
  };
}
