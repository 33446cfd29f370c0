// The data repositories on the store's core (connection, transactions, caches), as two sandbox
// processes on one database have them: a kept answer of a read of sessions is never stale, whichever
// sandbox wrote since, and an idempotency key has one effect through either.
import { describe, expect, it } from 'vitest';
import { newSession } from '../../src/sandbox/domain/create-session.js';
import { sessionListFilter } from '../../src/sandbox/domain/listing.js';
import type { CreateSessionRequest, Session } from '../../src/sandbox/domain/types.js';
import { pgAnswerCache } from '../../src/sandbox/store/postgres/answer-cache.js';
import type { PostgresCore } from '../../src/sandbox/store/postgres/core.js';
import { sessionsRepository } from '../../src/sandbox/store/postgres/sessions.js';
import { sessionRequest } from '../../testkit/sandbox.js';
import { twoSandboxes } from './core-support.js';
import { DATA_STORE_MIGRATIONS } from './data-process.js';

/** Two sandboxes on one fresh database, each with its sessions on its own core and answer cache. */
async function twoWithSessions(label: string) {
  const cores = await twoSandboxes(label, { migrations: DATA_STORE_MIGRATIONS });
  return cores.map((core) => ({ core, sessions: sessionsRepository(core.q, pgAnswerCache(core.facts)) }));
}

let ids = 0;
const session = (channel = 'dev', idempotencyKey?: string): Session => {
  const id = `sess-${ids++}`;
  return newSession({
    id,
    channel,
    request: sessionRequest(idempotencyKey ? { idempotency_key: idempotencyKey } : {}) as CreateSessionRequest,
    now: '2026-03-01T00:00:00.000Z',
    newId: () => `${id}-item`,
  });
};

type Sandbox = { core: PostgresCore; sessions: ReturnType<typeof sessionsRepository> };

/** The first page of the channel's sessions as a request answers it: through the kept answers. */
function firstPage({ core, sessions }: Sandbox, counting: { runs: number }) {
  return core.read(() =>
    sessions.answer('dev', 'page 1', async () => {
      counting.runs++;
      const { views, count } = await sessions.listViews('dev', sessionListFilter({}), { offset: 0, limit: 30 });
      return JSON.stringify({ count, ids: views.map((view) => JSON.parse(view).id) });
    }),
  );
}

describe('the data repositories on the store, two sandboxes on one database', () => {
  it("a page of sessions kept by one sandbox shows another sandbox's new session at its next read", async () => {
    const [here, there] = await twoWithSessions('data_store_page');
    const first = session();
    await here!.core.transaction(() => here!.sessions.insert(first));
    const counting = { runs: 0 };
    expect(JSON.parse(await firstPage(here!, counting))).toEqual({ count: 1, ids: [first.id] });
    // Kept: the same read again computes nothing.
    await firstPage(here!, counting);
    expect(counting.runs).toBe(1);

    const second = session();
    await there!.core.transaction(() => there!.sessions.insert(second));
    expect(JSON.parse(await firstPage(here!, counting))).toEqual({ count: 2, ids: [second.id, first.id] });
  });

  it("a session retrieved through one sandbox shows another sandbox's change at its next read", async () => {
    const [here, there] = await twoWithSessions('data_store_detail');
    const written = session();
    await there!.core.transaction(() => there!.sessions.insert(written));
    const retrieve = () =>
      here!.core.read(async () => JSON.parse((await here!.sessions.detailView('dev', written.id))!));
    expect(await retrieve()).toMatchObject({ status: 'pending' });
    await there!.core.transaction(() => there!.sessions.update({ ...written, status: 'canceled' }));
    expect(await retrieve()).toMatchObject({ status: 'canceled' });
  });

  it('a retrieve of a session not yet written keeps nothing: it is found once written', async () => {
    const [here] = await twoWithSessions('data_store_missing');
    expect(await here!.core.read(() => here!.sessions.detailView('dev', 'later'))).toBeUndefined();
    const later = { ...session(), id: 'later' };
    await here!.core.transaction(() => here!.sessions.insert(later));
    expect(await here!.core.read(() => here!.sessions.detailView('dev', 'later'))).toContain('"id":"later"');
  });

  it('create with one idempotency key through two sandboxes at once has one effect', async () => {
    const sandboxes = await twoWithSessions('data_store_idempotency');
    const answered = await Promise.all(
      Array.from({ length: 10 }, (_, n) => {
        const { core, sessions } = sandboxes[n % 2]!;
        return core.transaction(async () => {
          const found = await sessions.findByIdempotencyKey('dev', 'key-1');
          if (found) return found.id;
          const created = session('dev', 'key-1');
          await sessions.insert(created);
          return created.id;
        });
      }),
    );
    expect(new Set(answered).size).toBe(1);
    const { count } = await sandboxes[1]!.core.read(() =>
      sandboxes[1]!.sessions.list('dev', sessionListFilter({}), { offset: 0, limit: 30 }),
    );
    expect(count).toBe(1);
  });
});
