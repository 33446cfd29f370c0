// The kept answers of reads of sessions in the PostgreSQL store: the cache drops a channel's
// answers when told (store/postgres/answer-cache.ts), the sessions repository tells it whenever it
// writes one of the channel's sessions, and keeps each session's detail under its own key
// (store/postgres/sessions.ts).
import { describe, expect, it } from 'vitest';
import { newSession } from '../../src/sandbox/domain/create-session.js';
import { completeCheckout } from '../../src/sandbox/domain/sessions.js';
import type { CreateSessionRequest, Session } from '../../src/sandbox/domain/types.js';
import { answerCache } from '../../src/sandbox/store/answer-cache.js';
import { pgAnswerCache } from '../../src/sandbox/store/postgres/answer-cache.js';
import { STORE_MIGRATIONS } from '../../src/sandbox/store/postgres/index.js';
import { type SessionAnswerCache, sessionsRepository } from '../../src/sandbox/store/postgres/sessions.js';
import { sessionRequest } from '../../testkit/sandbox.js';
import { newDatabase, openCore } from './core-support.js';

const session = (id: string): Session =>
  newSession({
    id,
    channel: 'dev',
    request: sessionRequest() as CreateSessionRequest,
    now: '2026-03-01T00:00:00.000Z',
    newId: () => `${id}-item`,
  });

/** A core with every table the sessions need. */
const sessionsCore = async (label: string) => openCore(await newDatabase(label), { migrations: STORE_MIGRATIONS });

/**
 * A cache that keeps every answer until told to drop its channel's, whatever the transactions: what
 * a repository that forgot to tell it would leave stale shows.
 */
function keepingUntilDropped(): SessionAnswerCache {
  const kept = answerCache({ map: () => new Map(), revalidate() {}, clear() {} });
  return {
    async answer(channel, key, compute) {
      const found = kept.get(channel, key);
      if (found !== undefined) return found;
      const text = await compute();
      if (text !== undefined) kept.set(channel, key, text);
      return text;
    },
    dropChannel: (channel) => kept.dropChannel(channel),
  };
}

describe("a channel's kept answers", () => {
  it("are dropped when the channel's are dropped, even outside any transaction, and only the channel's", async () => {
    const core = await sessionsCore('answers_drop_channel');
    const answers = pgAnswerCache(core.facts);
    await core.revalidate();
    expect(await answers.answer('dev', 'page', async () => 'dev before')).toBe('dev before');
    expect(await answers.answer('other', 'page', async () => 'other before')).toBe('other before');
    answers.dropChannel('dev');
    expect(await answers.answer('dev', 'page', async () => 'dev after')).toBe('dev after');
    expect(await answers.answer('other', 'page', async () => 'not computed')).toBe('other before');
  });

  it("are dropped when one of the channel's sessions is inserted or updated", async () => {
    const core = await sessionsCore('answers_session_writes');
    const sessions = sessionsRepository(core.q, keepingUntilDropped());
    const count = () =>
      sessions.answer('dev', 'count', async () =>
        String(await core.q.value("SELECT count(*) FROM payment_sessions WHERE channel = 'dev'")),
      );
    const written = session('ps_1');
    expect(await count()).toBe('0');
    await core.write(() => sessions.insert(written));
    expect(await count()).toBe('1');
    expect(await sessions.detailView('dev', 'ps_1')).toContain('"pending"');
    completeCheckout(written, '2026-03-01T00:01:00.000Z');
    await core.write(() => sessions.update(written));
    expect(await sessions.detailView('dev', 'ps_1')).toContain('"processing"');
  });

  it("keep each session's detail apart", async () => {
    const core = await sessionsCore('answers_detail_keys');
    const sessions = sessionsRepository(core.q, pgAnswerCache(core.facts));
    await core.write(async () => {
      await sessions.insert(session('ps_1'));
      await sessions.insert(session('ps_2'));
    });
    expect(await core.read(() => sessions.detailView('dev', 'ps_1'))).toContain('"ps_1"');
    expect(await core.read(() => sessions.detailView('dev', 'ps_2'))).toContain('"ps_2"');
    expect(await core.read(() => sessions.detailView('dev', 'ps_3'))).toBeUndefined();
    expect(await core.read(() => sessions.detailView('dev', 'ps_1'))).not.toContain('"ps_2"');
  });
});
