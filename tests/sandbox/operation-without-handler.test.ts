// An operation the contract gains before the sandbox has its handler answers 501 NotImplemented,
// whatever its body: valid, malformed, too large, or of another content type.
import { FairTurns } from '../../src/sandbox/http/turns.js';
import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { DEFAULT_API_KEYS, registerAuth } from '../../src/sandbox/http/auth.js';
import { BODY_LIMIT_BYTES, registerJsonParser } from '../../src/sandbox/http/body-parsing.js';
import { CONTRACT_FILE, loadDocument, SchemaValidators } from '../../src/sandbox/http/document.js';
import { codesOf } from '../../src/sandbox/http/error-codes.js';
import { registerErrorPath } from '../../src/sandbox/http/errors.js';
import { registerOperations } from '../../src/sandbox/http/operations.js';
import { randomIds } from '../../src/sandbox/ids.js';
import { createStore, openDatabase } from '../../src/sandbox/store/index.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';

describe('an operation without a handler', () => {
  // Every operation of both documents has a handler now. The 501 path stays for an operation the
  // contract gains before the sandbox does: the contract's routes, registered without handlers,
  // answer 501 to any body, read or not.
  async function handlerless() {
    const store = createStore(openDatabase(':memory:'));
    const app = Fastify({ bodyLimit: BODY_LIMIT_BYTES });
    registerErrorPath(app);
    registerJsonParser(app);
    registerAuth(app, DEFAULT_API_KEYS, sqliteBackend(store));
    registerOperations(app, {
      validators: new SchemaValidators(loadDocument(CONTRACT_FILE)),
      handlers: {},
      codesFor: codesOf,
      store: sqliteBackend(store),
      turns: new FairTurns(),
      ids: randomIds,
      publicUrl: () => 'http://127.0.0.1',
    });
    await app.ready();
    return app;
  }
  it.each([
    [
      'a valid body',
      {
        payload: JSON.stringify({ success_url: 'https://a.example', failure_url: 'https://a.example' }),
        headers: { 'content-type': 'application/json' },
      },
    ],
    ['an empty Content-Type', { payload: '{"x":1}', headers: { 'content-type': '' } }],
    [
      'a body over the size limit',
      { payload: JSON.stringify({ x: 'y'.repeat(300 * 1024) }), headers: { 'content-type': 'application/json' } },
    ],
    ['malformed JSON', { payload: '{', headers: { 'content-type': 'application/json' } }],
    ['a form body', { payload: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
  ])('answers 501 NotImplemented for %s', async (_case, options) => {
    const app = await handlerless();
    const reply = await app.inject({
      method: 'POST',
      url: '/api/v1/payment_tokens/create',
      headers: { ...options.headers, 'x-service-api-key': 'sandbox-dev-key' },
      payload: options.payload,
    });
    expect({ status: reply.statusCode, error: reply.json().error }).toEqual({ status: 501, error: 'NotImplemented' });
    await app.close();
  });
});
