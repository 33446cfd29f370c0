// --log json, as a hosted sandbox writes its log: one JSON line per request, bound to its request id
// (the balancer's x-request-id when sane, else the sandbox's own, echoed in the answer), naming the
// route's template; and no line ever holds a key, an admin key, a session's id (a hosted page's
// URL lets a customer in) or a query.
import { describe, expect, it } from 'vitest';
import { startSandboxProcess } from '../../testkit/sandbox-process.js';

const OPERATOR_KEY = 'ops-secret-123';

describe('--log json', () => {
  it('writes a JSON line per request with its request id and route, and never a key, an id of a URL or a query', async () => {
    const sandbox = await startSandboxProcess({
      quiet: false,
      args: ['--log', 'json'],
      env: { SANDBOX_API_KEYS: `${OPERATOR_KEY}:dev` },
    });
    try {
      const headers = { 'x-service-api-key': OPERATOR_KEY, 'content-type': 'application/json' };
      const given = await fetch(
        `${sandbox.baseUrl}/payments/v1/payment_sessions?customer_email=private%40example.com`,
        {
          headers: { ...headers, 'x-request-id': 'balancer-7f3a' },
        },
      );
      expect(given.headers.get('x-request-id')).toBe('balancer-7f3a');
      const hostile = await fetch(`${sandbox.baseUrl}/payments/v1/payment_sessions`, {
        headers: { ...headers, 'x-request-id': `bad id ${'x'.repeat(200)}` },
      });
      const minted = hostile.headers.get('x-request-id')!;
      expect(minted).toMatch(/^req_[0-9a-f]{16}$/);
      // A key sent as the request id is neither logged nor echoed.
      const keyAsId = await fetch(`${sandbox.baseUrl}/payments/v1/payment_sessions`, {
        headers: { ...headers, 'x-request-id': OPERATOR_KEY },
      });
      const mintedForKey = keyAsId.headers.get('x-request-id')!;
      expect(mintedForKey).toMatch(/^req_[0-9a-f]{16}$/);
      const hosted = await fetch(`${sandbox.baseUrl}/checkout/0b6f3c7e-8d0a-4d4b-9a49-3c2f1e5d7a11`);
      await fetch(`${sandbox.baseUrl}/metrics`, {
        headers: { authorization: 'Bearer sk_sandbox_not-a-real-admin-key' },
      });
      await expect
        .poll(
          () =>
            sandbox
              .output()
              .split('\n')
              .filter((line) => line.includes('"route":"/metrics"')).length,
        )
        .toBe(1);
      const lines = sandbox
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'));
      // Beside the test's five, the start's readiness polls of /health.
      const answered = lines
        .map((line) => JSON.parse(line))
        .filter((entry) => entry.msg === 'answered' && entry.route !== '/health');
      expect(answered.map((entry) => [entry.request_id, entry.route, entry.status])).toEqual([
        ['balancer-7f3a', '/payments/v1/payment_sessions', 200],
        [minted, '/payments/v1/payment_sessions', 200],
        [mintedForKey, '/payments/v1/payment_sessions', 200],
        [expect.stringMatching(/^req_/), '/checkout/:id', hosted.status],
        [expect.stringMatching(/^req_/), '/metrics', 401],
      ]);
      expect(answered[0]).toMatchObject({ level: 30, method: 'GET', channel: 'dev', ms: expect.any(Number) });
      const whole = sandbox.output();
      // No line that is not JSON on stderr either: fastify warns of no deprecated option.
      expect(whole).not.toMatch(/FastifyDeprecation|FSTDEP/);
      for (const secret of [OPERATOR_KEY, 'not-a-real-admin-key', '0b6f3c7e-8d0a-4d4b-9a49-3c2f1e5d7a11', 'private']) {
        expect(whole, secret).not.toContain(secret);
      }
      // The start's line is JSON too, and names the channel of the key the operator set, not the key.
      expect(lines.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'Sandbox listening')).toMatchObject({
        api_keys: expect.stringContaining('1 set by SANDBOX_API_KEYS (channels dev), not shown'),
      });
    } finally {
      await sandbox.stop();
    }
  });
});
