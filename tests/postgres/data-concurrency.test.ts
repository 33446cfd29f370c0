// Several sandboxes writing one PostgreSQL database at once act as one: an idempotency key has one
// effect, sessions are listed in the order their writes committed, and a channel's seed catalog is
// laid down once. Each "process" is a pool of its own whose writes take the store's advisory lock;
// the unique indexes are the backstop of a write that would not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_CATALOG } from '../../src/sandbox/domain/catalog.js';
import { newSession } from '../../src/sandbox/domain/create-session.js';
import { sessionListFilter } from '../../src/sandbox/domain/listing.js';
import type { ProvisionRequest } from '../../src/sandbox/domain/provisioning.js';
import type { CreateSessionRequest, Session } from '../../src/sandbox/domain/types.js';
import { catalogRepository } from '../../src/sandbox/store/postgres/catalog.js';
import { provisionRequestsRepository } from '../../src/sandbox/store/postgres/provision-requests.js';
import { sessionsRepository } from '../../src/sandbox/store/postgres/sessions.js';
import { sessionRequest } from '../../testkit/sandbox.js';
import { dataDatabase, type Process, processOn, noAnswers } from './data-process.js';

const PROCESSES = 3;
const WRITES_EACH = 8;

let processes: Process[];
beforeAll(async () => {
  const url = await dataDatabase('data_concurrency');
  processes = Array.from({ length: PROCESSES }, () => processOn(url));
});
afterAll(async () => {
  for (const process of processes) await process.close();
});

let ids = 0;
function session(channel: string, idempotencyKey?: string): Session {
  const id = `sess-${ids++}`;
  return newSession({
    id,
    channel,
    request: sessionRequest(idempotencyKey ? { idempotency_key: idempotencyKey } : {}) as CreateSessionRequest,
    now: '2026-03-01T00:00:00.000Z',
    newId: () => `item-${ids++}`,
  });
}

/** Every process's writes, WRITES_EACH at once from each, all started together. */
const everyProcessAtOnce = <T>(write: (process: Process, n: number) => Promise<T>) =>
  Promise.all(processes.flatMap((process) => Array.from({ length: WRITES_EACH }, (_, n) => write(process, n))));

describe('several processes writing the data repositories at once', () => {
  it('create with one idempotency key has one effect, and every create answers the same session', async () => {
    const answered = await everyProcessAtOnce((process) => {
      const sessions = sessionsRepository(process.q, noAnswers);
      return process.write(async () => {
        const found = await sessions.findByIdempotencyKey('idem', 'key-1');
        if (found) return found.id;
        const created = session('idem', 'key-1');
        await sessions.insert(created);
        return created.id;
      });
    });
    const reader = sessionsRepository(processes[0]!.q, noAnswers);
    const { sessions, count } = await reader.list('idem', sessionListFilter({}), { offset: 0, limit: 100 });
    expect(count).toBe(1);
    expect(new Set(answered)).toEqual(new Set([sessions[0]!.id]));
  });

  it('a provision request with one idempotency key is created once', async () => {
    const answered = await everyProcessAtOnce((process, n) => {
      const requests = provisionRequestsRepository(process.q);
      return process.write(async () => {
        const found = await requests.findByIdempotencyKey('idem', 'pk-1');
        if (found) return found.id;
        const request = {
          id: `pr-${process === processes[0] ? 'a' : 'b'}-${n}-${ids++}`,
          channel: 'idem',
          created_at: '2026-03-01T00:00:00.000Z',
          purpose: 'setup',
          status: 'awaiting_customer',
          customer_key: 'jane@example.com',
          idempotency_key: 'pk-1',
          needs: [],
          success_url: 'https://shop.example/ok',
          failure_url: 'https://shop.example/no',
          use_iframe: false,
        } as unknown as ProvisionRequest;
        await requests.insert(request);
        return request.id;
      });
    });
    expect(new Set(answered).size).toBe(1);
    const rows = await processes[0]!.q.value<number>(
      "SELECT COUNT(*) FROM provision_requests WHERE channel = 'idem' AND idempotency_key = 'pk-1'",
    );
    expect(rows).toBe(1);
  });

  it('the unique index refuses a second session of one idempotency key even from a write outside the lock', async () => {
    const first = session('backstop', 'key-2');
    const second = session('backstop', 'key-2');
    const [a, b] = processes.map((process) => sessionsRepository(process.q, noAnswers));
    await a!.insert(first);
    await expect(b!.insert(second)).rejects.toMatchObject({ code: '23505' });
  });

  it('sessions are listed newest first in the order their writes committed, whichever process wrote them', async () => {
    const committed: string[] = [];
    await everyProcessAtOnce((process) => {
      const sessions = sessionsRepository(process.q, noAnswers);
      return process.write(async () => {
        const created = session('order');
        await sessions.insert(created);
        // Under the write lock: the order these run in is the order the writes commit.
        committed.push(created.id);
      });
    });
    const reader = sessionsRepository(processes[1]!.q, noAnswers);
    const { sessions } = await reader.list('order', sessionListFilter({}), { offset: 0, limit: 100 });
    expect(sessions.map((s) => s.id)).toEqual([...committed].reverse());
  });

  it("a channel's seed catalog is laid down once, however many processes seed it at once", async () => {
    let products = 0;
    await everyProcessAtOnce((process) =>
      process.write(() =>
        catalogRepository(process.q).seed('seeded', '2026-03-01T00:00:00.000Z', () => `prod-${products++}`),
      ),
    );
    const { count, items } = await catalogRepository(processes[2]!.q).list('seeded', {}, { offset: 0, limit: 100 });
    expect(count).toBe(SEED_CATALOG.length);
    expect(items.map((item) => item.sku).reverse()).toEqual(SEED_CATALOG.map((item) => item.sku));
  });
});
