// Payment sessions, stored as JSON documents with the columns that are looked up.
import type { Session } from '../domain/types.js';
import type { Db } from './database.js';

export function sessionsRepository(db: Db) {
  const insert = db.prepare('INSERT INTO payment_sessions (id, channel, created_at, idempotency_key, document) VALUES (?, ?, ?, ?, ?)');
  const update = db.prepare('UPDATE payment_sessions SET document = ? WHERE id = ?');
  const byId = db.prepare('SELECT document FROM payment_sessions WHERE channel = ? AND id = ?').pluck();
  const byKey = db.prepare('SELECT document FROM payment_sessions WHERE channel = ? AND idempotency_key = ?').pluck();
  const anywhere = db.prepare('SELECT document FROM payment_sessions WHERE id = ?').pluck();
  const byChannel = db.prepare('SELECT document FROM payment_sessions WHERE channel = ? ORDER BY created_at DESC, id DESC').pluck();
  const parse = (document: unknown) => (document === undefined ? undefined : (JSON.parse(document as string) as Session));

  return {
    insert(session: Session): void {
      insert.run(session.id, session.channel, session.created_at, session.idempotency_key ?? null, JSON.stringify(session));
    },
    update(session: Session): void {
      update.run(JSON.stringify(session), session.id);
    },
    /** A session of this channel; another channel's is not found. */
    get(channel: string, id: string): Session | undefined {
      return parse(byId.get(channel, id));
    },
    /** Any channel's session: only for the customer's hosted pages, which carry no API key. */
    getForCustomer(id: string): Session | undefined {
      return parse(anywhere.get(id));
    },
    findByIdempotencyKey(channel: string, key: string): Session | undefined {
      return parse(byKey.get(channel, key));
    },
    listByChannel(channel: string): Session[] {
      return (byChannel.all(channel) as string[]).map((d) => JSON.parse(d) as Session);
    },
  };
}
