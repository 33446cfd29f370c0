// The request id of the JSON log (--log json): the balancer's when it is sane and cannot be a key,
// since it is written to every line of the request and echoed in the answer.
import { describe, expect, it } from 'vitest';
import { requestIdOf } from '../../src/sandbox/http/json-log.js';

const fixedKeys = new Set(['ops-secret-123', 'ops-other-456']);
const minted = /^req_[0-9a-f]{16}$/;

describe('the request id a request is logged with', () => {
  it("keeps the balancer's sane id", () => {
    expect(requestIdOf({ 'x-request-id': 'balancer-7f3a' }, fixedKeys)).toBe('balancer-7f3a');
  });

  it('mints its own for a missing, repeated, overlong or odd id', () => {
    for (const given of [undefined, ['a', 'b'], 'x'.repeat(129), 'bad id', '', 'a\u00e9'])
      expect(requestIdOf({ 'x-request-id': given as string }, fixedKeys)).toMatch(minted);
  });

  it('never keeps an id that is a key: managed, set at start, or sent as the credential', () => {
    const managed = 'sk_sandbox_1cV0aVCsaQ3xw9L-Jd0PqS2xZk';
    expect(requestIdOf({ 'x-request-id': managed }, fixedKeys)).toMatch(minted);
    expect(requestIdOf({ 'x-request-id': 'ops-other-456', 'x-service-api-key': 'ops-secret-123' }, fixedKeys)).toMatch(
      minted,
    );
    expect(requestIdOf({ 'x-request-id': 'own-key-1', 'x-service-api-key': 'own-key-1' }, new Set())).toMatch(minted);
    expect(requestIdOf({ 'x-request-id': 'tok-9', authorization: 'Bearer tok-9' }, new Set())).toMatch(minted);
  });

  it.each([
    ['the prefix in another case', 'SK_SANDBOX_YCYLD1VVEIUJA6S8TKFMY'],
    ['a managed key after a prefix of its own', 'trace:sk_sandbox_rnAHq0fZ3LmT8yVbXw2K'],
    ["another channel's managed key without its prefix", 'yCYld1vVEIUja6s8TkfMY-Ti5855fpe6'],
    ['a key set at start in another case', 'FIXEDKEYABC123'],
    ['a key set at start with a suffix', 'fixedKeyAbc123.1'],
  ])('never keeps an id that holds a key: %s', (_case, given) => {
    expect(requestIdOf({ 'x-request-id': given }, new Set(['fixedKeyAbc123']))).toMatch(minted);
  });

  it("never keeps an id that holds the request's own credential, or its random part", () => {
    const own = 'sk_sandbox_abcdefghijklmnopqrstuvwxyz012345';
    expect(requestIdOf({ 'x-request-id': `id-${own}`, 'x-service-api-key': own }, new Set())).toMatch(minted);
    expect(
      requestIdOf({ 'x-request-id': 'x.abcdefghijklmnopqrstuvwxyz012345', 'x-service-api-key': own }, new Set()),
    ).toMatch(minted);
  });

  it.each([
    ['nginx', '7f3a9c2e1b4d5f60718293a4b5c6d7e8'],
    ['a UUID', '0b6f3c7e-8d0a-4d4b-9a49-3c2f1e5d7a11'],
    ['upper-case hex', '7F3A9C2E1B4D5F60718293A4B5C6D7E8'],
    ['a word and a counter', 'checkout-worker-000123'],
  ])("keeps a balancer's id: %s", (_case, given) => {
    expect(requestIdOf({ 'x-request-id': given }, fixedKeys)).toBe(given);
  });

  it('keeps an id that only shares characters with the credential', () => {
    expect(requestIdOf({ 'x-request-id': 'tok', authorization: 'Bearer tok-9' }, new Set())).toBe('tok');
  });
});
