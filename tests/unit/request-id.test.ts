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

  it('keeps an id that only shares characters with the credential', () => {
    expect(requestIdOf({ 'x-request-id': 'tok', authorization: 'Bearer tok-9' }, new Set())).toBe('tok');
  });
});
