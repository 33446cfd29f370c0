// PostgreSQL's text holds no NUL character, where SQLite's does. A path or query text with one names
// nothing on both backends: 404, or an empty page. (A NUL in what a write stores is kept on both: the
// PostgreSQL store escapes it, postgres/nul.ts; hostile-input.test.ts.) A key with one, given to
// the store, finds the row stored under it on both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/sandbox/store/database.js';
import { listenersRepository } from '../../src/sandbox/store/listeners.js';
import { createPostgresStore } from '../../src/sandbox/store/postgres/index.js';
import { testDatabase } from '../support/postgres-database.js';
import { postgresSide, type Request, type Side, sqliteSide } from './differential-support.js';

let sides: Side[] = [];
beforeAll(async () => {
  sides = [await sqliteSide(), await postgresSide(await testDatabase('text_nul'))];
});
afterAll(async () => {
  for (const side of sides) await side.close();
});

const NAMING_NOTHING: Request[] = [
  { method: 'GET', url: '/v1/disputes/ab%00cd' },
  { method: 'POST', url: '/v1/disputes/ab%00cd/accept' },
  { method: 'DELETE', url: '/sandbox/v1/webhook_listeners/ab%00cd' },
  { method: 'GET', url: '/sandbox/v1/webhook_listeners/ab%00cd/deliveries?wait=0' },
  { method: 'GET', url: '/sandbox/v1/outbox?event_type=ab%00cd' },
];

describe('a path or query text with a NUL character', () => {
  it.each(NAMING_NOTHING.map((request) => [`${request.method} ${request.url}`, request] as const))(
    '%s names nothing, answered alike by the SQLite and the PostgreSQL sandbox',
    async (_, request) => {
      const [sqlite, postgres] = [await sides[0]!.send(request), await sides[1]!.send(request)];
      expect(postgres.status).toBeLessThan(500);
      expect({ status: postgres.status, body: postgres.body }).toEqual({ status: sqlite.status, body: sqlite.body });
    },
  );
});

describe('a listener whose id holds a NUL character', () => {
  it('is found by that id on PostgreSQL, as on SQLite: the id crosses to the server escaped', async () => {
    const listener = {
      id: 'wl_a\u0000b',
      channel: 'dev',
      url: 'listener://local',
      event_types: ['*'],
      secret: 'whsec_nul',
      mode: 'signed' as const,
      created_at: '2026-01-01T00:00:00.000Z',
      polled_at: 1_000,
    };
    const sqlite = listenersRepository(openDatabase(':memory:'));
    sqlite.add(listener);
    const postgres = await createPostgresStore(await testDatabase('listener_nul'));
    try {
      await postgres.listeners.add(listener);
      expect(await postgres.listeners.liveOne('dev', listener.id, 0)).toEqual(sqlite.liveOne('dev', listener.id, 0));
      expect(await postgres.listeners.liveOne('dev', listener.id, 0)).toEqual(listener);
    } finally {
      await postgres.close();
    }
  });
});
