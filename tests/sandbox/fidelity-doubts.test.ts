// The last fidelity doubts of the sandbox: each test's first request is the reproduction, and it
// gets the answer the reference gives, or, where the reference is silent, the sandbox's stated
// choice (openapi/sandbox.yaml).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testSandbox, type TestSandbox } from '../support/sandbox.js';

let s: TestSandbox;
beforeEach(() => { s = testSandbox(); });
afterEach(() => s.close());

describe('a cancel that cannot be done leads somewhere', () => {
  it('a one-time payment under review: wait for the webhook, then refund; the void it does not suggest answers ImmediateCapture', async () => {
    const id = await s.createSession();
    await s.complete(id);
    const cancel = await s.post(`${s.session(id)}/cancel`, {});
    expect({ status: cancel.status, error: cancel.body.error }).toEqual({ status: 400, error: 'SessionAuthorized' });
    expect(cancel.body.message).toContain('wait for the payment_session_complete webhook, then refund it if it was captured');
    expect(cancel.body.message).not.toMatch(/void/i);
    expect((await s.post(`${s.session(id)}/void`, {})).body.error).toBe('ImmediateCapture');
  });

  it('an authorization whose hold is placed: void it, which then works', async () => {
    const id = await s.authorized();
    const cancel = await s.post(`${s.session(id)}/cancel`, {});
    expect(cancel.body).toMatchObject({ error: 'SessionAuthorized', message: expect.stringContaining('void the authorization') });
    expect((await s.post(`${s.session(id)}/void`, {})).status).toBe(200);
  });
});
