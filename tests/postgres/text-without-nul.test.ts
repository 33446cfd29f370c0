// PostgreSQL's text holds no NUL character, where SQLite's does: a write of a string with one was
// stored on SQLite and failed with 500 on PostgreSQL. The sandbox refuses such a body before any
// store is asked (http/body-parsing.ts), so that both backends answer it alike, with the
// operation's own 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionRequest } from '../../testkit/sandbox.js';
import { testDatabase } from '../support/postgres-database.js';
import { postgresSide, type Request, type Side, sqliteSide } from './differential-support.js';

const WITH_NUL: Array<[string, Request, string]> = [
  [
    'a session keyed by a text with a NUL',
    {
      method: 'POST',
      url: '/payments/v1/create_payment_session',
      body: sessionRequest({ idempotency_key: 'k\u00001' }),
    },
    'InvalidRequestParameter',
  ],
  [
    'a session for a customer whose name holds a NUL',
    {
      method: 'POST',
      url: '/payments/v1/create_payment_session',
      body: sessionRequest({ customer_name: 'Ja\u0000ne' }),
    },
    'InvalidRequestParameter',
  ],
  [
    'a payment token request keyed by a text with a NUL',
    {
      method: 'POST',
      url: '/api/v1/payment_tokens/create',
      body: {
        success_url: 'https://shop.example/s',
        failure_url: 'https://shop.example/f',
        idempotency_key: 't\u00001',
        customer_email: 'pat@example.com',
      },
    },
    'ValidationError',
  ],
  [
    'a catalog item whose sku holds a NUL',
    {
      method: 'POST',
      url: '/api/v1/product_catalog/items/create',
      body: { sku: 'S\u00001', name: 'n', description: 'd', gtin: 'g', image_urls: [] },
    },
    'InvalidRequestParameter',
  ],
];

let sides: Side[] = [];
beforeAll(async () => {
  sides = [sqliteSide(), await postgresSide(await testDatabase('text_nul'))];
});
afterAll(async () => {
  for (const side of sides) await side.close();
});

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
