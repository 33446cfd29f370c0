// PostgreSQL's text holds no NUL character, where SQLite's does. A path or query text with one names
// nothing on both backends: 404, or an empty page. (A NUL in what a write stores is kept on both: the
// PostgreSQL store escapes it, postgres/nul.ts; hostile-input.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '../support/postgres-database.js';
import { postgresSide, type Request, type Side, sqliteSide } from './differential-support.js';

let sides: Side[] = [];
beforeAll(async () => {
  sides = [sqliteSide(), await postgresSide(await testDatabase('text_nul'))];
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
