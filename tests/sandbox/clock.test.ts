// The sandbox's clock helper (POST /sandbox/v1/clock/advance): how far one move may take a channel.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testSandbox, type TestSandbox } from '../support/sandbox.js';

let s: TestSandbox;
beforeEach(() => { s = testSandbox(); });
afterEach(() => s.close());

describe('the clock helper', () => {
  it('refuses to move the clock more than 10 years at once', async () => {
    const { status, body } = await s.post('/sandbox/v1/clock/advance', { seconds: 1e12 });
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'InvalidRequest' });
  });
});
