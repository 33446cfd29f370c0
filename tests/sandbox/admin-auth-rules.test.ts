// How the operator's routes read their admin key (http/auth.ts): `Authorization: Bearer <token>`,
// spelt as RFC 6750 allows and nothing looser, and a refusal that says which of the two went wrong:
// no Authorization at all, or one that carries no admin key that serves.
import { beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_SCOPE } from '../../src/sandbox/domain/api-keys.js';
import { bearerToken, parseApiKeys } from '../../src/sandbox/http/auth.js';
import { createKey } from '../../src/sandbox/keys/manage.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';
import { testSandbox, type TestSandbox } from '../../testkit/sandbox.js';

const KEYS = '/sandbox/v1/admin/api_keys';
const MISSING = 'This route needs an admin key, as Authorization: Bearer sk_sandbox_…';
const NOT_SERVING = 'The Authorization header does not carry an admin key that serves.';

let s: TestSandbox;
let adminKey: string;
beforeEach(async () => {
  s = testSandbox();
  adminKey = (await createKey(sqliteBackend(s.store), ADMIN_SCOPE)).key;
  return () => s.close();
});
const asked = (headers: Record<string, string>) => s.call('GET', KEYS, { key: null, headers });

describe("the admin key's refusal", () => {
  it('without an Authorization header says the route needs an admin key, and how to make one', async () => {
    const reply = await asked({});
    expect(reply.status).toBe(401);
    expect(reply.body.message).toContain(MISSING);
  });

  it.each([
    ['a scheme other than Bearer', 'Basic c2FuZGJveA=='],
    ['a bearer that is no managed key', 'Bearer sandbox-dev-key'],
    ['a managed key that was never made', 'Bearer sk_sandbox_notmadeatallnotmadeatallnotmadeat'],
  ])('with %s says the header carries no admin key that serves', async (_case, authorization) => {
    const reply = await asked({ authorization });
    expect(reply.status).toBe(401);
    expect(reply.body.message).toBe(NOT_SERVING);
  });
});

describe('the bearer token', () => {
  it('is read after "Bearer", its case and the spaces around the token as they come', async () => {
    for (const authorization of [`Bearer ${adminKey}`, `bearer  ${adminKey}`, `BEARER ${adminKey}  `])
      expect((await asked({ authorization })).status, authorization).toBe(200);
  });

  it('is no token when "Bearer" does not begin the header, or something follows the token', async () => {
    for (const authorization of [`XBearer ${adminKey}`, `Token Bearer ${adminKey}`, `Bearer ${adminKey} extra`])
      expect((await asked({ authorization })).body.message, authorization).toBe(NOT_SERVING);
  });

  it.each([
    ['Bearer abc', 'abc'],
    ['Bearer   abc', 'abc'],
    ['bearer abc  ', 'abc'],
    ['Bearer', undefined],
    ['Bearer abc def', undefined],
    ['NotBearer abc', undefined],
    [undefined, undefined],
  ])('of %j is %j', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });
});

describe('SANDBOX_API_KEYS=none', () => {
  it('fixes no key at start, however it is spaced', () => {
    expect(parseApiKeys('none')).toEqual(new Map());
    expect(parseApiKeys('  none\n')).toEqual(new Map());
  });
});
