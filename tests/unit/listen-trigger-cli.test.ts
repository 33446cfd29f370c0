// The pure parts of `listen` and `trigger`: their options (and the one-line mistakes), the --events
// filter, the line per attempt, the table of triggers (one for every webhook event of the
// contract), the listener's derived secret, and what an event is about.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { listenerSecret } from '../../src/sandbox/delivery/listener-secret.js';
import { eventObjectId } from '../../src/sandbox/domain/event-subject.js';
import { attemptLine, duration, verdictOf, type ForwardedAttempt } from '../../src/sandbox/cli/attempt-line.js';
import { parseEventFilter } from '../../src/sandbox/cli/event-filter.js';
import { parseListenArgs } from '../../src/sandbox/cli/listen.js';
import { knownEventFilters, Redirected, RefusedCall, targetOf, UsageError } from '../../src/sandbox/cli/target.js';
import { findTrigger, triggerList, triggerNames } from '../../src/sandbox/cli/triggers.js';
import { contract } from '../../testkit/contract.js';

const usage = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected a UsageError');
};

describe('listen options', () => {
  it('defaults to the local sandbox and the development key, or SANDBOX_URL and SANDBOX_KEY', () => {
    expect(parseListenArgs(['--forward-to', 'http://localhost:3000/webhooks'], {})).toEqual({
      target: { sandbox: 'http://127.0.0.1:4010', key: 'sandbox-dev-key' },
      forwardTo: 'http://localhost:3000/webhooks',
      eventTypes: ['*'],
    });
    expect(
      parseListenArgs(['-f', 'https://shop.test/hooks'], {
        SANDBOX_URL: 'https://sandbox.example:8443/',
        SANDBOX_KEY: 'k1',
      }).target,
    ).toEqual({ sandbox: 'https://sandbox.example:8443', key: 'k1' });
    expect(
      parseListenArgs(['-f', 'http://x/', '--sandbox', 'http://10.0.0.5:4010', '--key', 'k2'], {
        SANDBOX_URL: 'http://ignored',
        SANDBOX_KEY: 'ignored',
      }).target,
    ).toEqual({ sandbox: 'http://10.0.0.5:4010', key: 'k2' });
  });

  it('refuses in one line a missing or non-http(s) forward URL, credentials in it, an unknown option, a bad sandbox or key', () => {
    expect(usage(() => parseListenArgs([], {}))).toMatch(/^listen needs --forward-to URL/);
    expect(usage(() => parseListenArgs(['--forward-to', 'localhost:3000'], {}))).toBe(
      '--forward-to must be an http or https URL, such as http://localhost:3000/webhooks, not "localhost:3000"',
    );
    expect(usage(() => parseListenArgs(['--forward-to', 'http://a:b@localhost:3000/'], {}))).toMatch(
      /must not carry a user or a password/,
    );
    expect(usage(() => parseListenArgs(['--forward-to', 'http://localhost/', '--port', '1'], {}))).toBe(
      "Unknown option '--port'",
    );
    expect(usage(() => parseListenArgs(['--forward-to'], {}))).toMatch(
      /^Option '-f, --forward-to <value>' argument missing/,
    );
    expect(usage(() => parseListenArgs(['--forward-to', 'http://localhost/', 'extra'], {}))).toMatch(
      /^Unexpected argument 'extra'/,
    );
    expect(usage(() => parseListenArgs(['--forward-to', 'http://localhost/', '--sandbox', 'file:///tmp'], {}))).toMatch(
      /^--sandbox must be the sandbox's http\(s\) address/,
    );
    expect(usage(() => targetOf({ key: ' sandbox-dev-key' }, {}))).toMatch(
      /^--key must be an API key of the sandbox, without spaces around it/,
    );
    for (const message of [
      usage(() => parseListenArgs([], {})),
      usage(() => parseListenArgs(['-f', 'http://x/', '--events', 'nope'], {})),
    ])
      expect(message).not.toContain('\n');
  });
});

describe('a redirect of the sandbox', () => {
  it('is said in one line naming the status and the Location, escaped, and cut past 200 characters', () => {
    expect(new Redirected('claim deliveries', 307, 'http://10.0.0.9/admin').message).toBe(
      'claim deliveries answered 307, ' +
        "a redirect (Location http://10.0.0.9/admin), which listen and trigger never follow: give the sandbox's own " +
        'address with --sandbox (https://… if it redirects from http)',
    );
    expect(new Redirected('x', 301, 'http://x/\u001b[2J\n').message).toContain('(Location http://x/\\x1b[2J\\x0a)');
    expect(new Redirected('x', 308, null).message).toContain('answered 308, a redirect (no Location), ');
    const long = `http://x/${'a'.repeat(300)}`;
    expect(new Redirected('x', 302, long).message).toContain(`(Location ${long.slice(0, 200)}…)`);
    expect(new Redirected('x', 302, long.slice(0, 200)).message).toContain(`(Location ${long.slice(0, 200)})`);
  });
});

describe('a refusal of the sandbox', () => {
  it('is said in one line quoting at most 100 characters of its code and 500 of its message', () => {
    expect(new RefusedCall('claim deliveries', 404, 'NotFound', 'gone').message).toBe(
      'claim deliveries answered 404 NotFound: gone',
    );
    const refused = new RefusedCall('x', 400, 'C'.repeat(101), 'm'.repeat(501));
    expect(refused.message).toBe(`x answered 400 ${'C'.repeat(100)}…: ${'m'.repeat(500)}…`);
    expect([refused.code.length, refused.detail.length]).toEqual([101, 501]);
  });
});

describe('--events', () => {
  const known = knownEventFilters();

  it('knows the names a webhook endpoint takes: every event of the contract, dispute.* and *', () => {
    const events = Object.keys(contract.webhooks ?? {}).filter((name) => !name.endsWith('.legacy'));
    expect(known).toEqual(expect.arrayContaining(['*', 'dispute.*', ...events]));
  });

  it('is every event by default; names repeat once; spaces around them are dropped', () => {
    expect(parseEventFilter(undefined, known)).toEqual(['*']);
    expect(parseEventFilter('dispute.created, dispute.closed,dispute.created', known)).toEqual([
      'dispute.created',
      'dispute.closed',
    ]);
    expect(parseEventFilter('payment_token_updated', known)).toEqual(['payment_token_updated']);
  });

  it('refuses an unknown name, listing the known ones, and an empty list', () => {
    expect(usage(() => parseEventFilter('dispute.created,charge.succeeded,x', known))).toBe(
      `unknown event types "charge.succeeded", "x" in --events; the known ones: ${known.join(', ')}`,
    );
    expect(usage(() => parseEventFilter(' , ', known))).toBe(
      `--events needs at least one event type; the known ones: ${known.join(', ')}`,
    );
  });
});

describe('the line per attempt', () => {
  const base: ForwardedAttempt = {
    at: new Date(2026, 10, 23, 9, 5, 7),
    eventType: 'dispute.created',
    objectId: '5b7e0c1a-9d2f-4e8b-a6c3-1f0d2e3a4b5c',
    attempt: 1,
    status: 204,
    error: null,
    latencyMs: 12.4,
    verdict: { kind: 'delivered' },
  };

  it('says when, what, about what, the status and the latency', () => {
    expect(attemptLine(base)).toBe(
      `2026-11-23 09:05:07  ${'dispute.created'.padEnd(40)}  5b7e0c1a-9d2f-4e8b-a6c3-1f0d2e3a4b5c  204  12 ms`,
    );
  });

  it('shows a failure with when its retry is due, no answer with why, and the end of the retries', () => {
    const retry = { kind: 'retry', dueAt: '2026-11-30T09:05:08.200Z', inMs: 1200 } as const;
    expect(attemptLine({ ...base, status: 500, verdict: retry })).toMatch(
      / {2}500 {2}12 ms {2}FAILED: retry 2 due in 1\.2 s \(2026-11-30T09:05:08\.200Z on the sandbox clock\)$/,
    );
    expect(attemptLine({ ...base, status: 200, verdict: retry })).toMatch(
      / {2}200 {2}12 ms {2}FAILED \(only 204 delivers\): retry 2/,
    );
    expect(
      attemptLine({ ...base, status: null, error: 'ECONNREFUSED', objectId: null, attempt: 3, verdict: retry }),
    ).toMatch(/dispute\.created {25} {2}- {35} {2}no answer \(ECONNREFUSED\) {2}12 ms {2}FAILED: retry 4 due in/);
    expect(attemptLine({ ...base, status: 500, verdict: { kind: 'failed' } })).toMatch(
      / {2}FAILED for good: its 7 days of retries are over$/,
    );
    expect(
      attemptLine({
        ...base,
        verdict: { kind: 'unrecorded', reason: 'report the attempt answered 400 InvalidState: …' },
      }),
    ).toMatch(/ {2}204 {2}12 ms {2}\(not recorded: report the attempt answered 400 InvalidState: …\)$/);
  });

  it("reads the sandbox's record: delivered, due again (from when the answer came), or failed for good", () => {
    const attempt = {
      id: '1',
      event_id: '1',
      webhook_delivery_id: 'dlv_1',
      event_type: 'dispute.created',
      endpoint_id: 'wl_1',
      url: 'http://x/',
      attempted_at: '2026-11-23T10:00:00.000Z',
      status: 500,
      latency_ms: 300,
      response_excerpt: null,
      error: null,
      delivery_status: 'pending' as const,
    };
    expect(verdictOf({ attempt, next_attempt_at: '2026-11-23T10:00:01.300Z' })).toEqual({
      kind: 'retry',
      dueAt: '2026-11-23T10:00:01.300Z',
      inMs: 1000,
    });
    expect(
      verdictOf({ attempt: { ...attempt, status: 204, delivery_status: 'delivered' }, next_attempt_at: null }),
    ).toEqual({ kind: 'delivered' });
    expect(verdictOf({ attempt: { ...attempt, delivery_status: 'failed' }, next_attempt_at: null })).toEqual({
      kind: 'failed',
    });
  });

  it('writes durations as a person reads them', () => {
    expect([duration(850), duration(1000), duration(59_949), duration(240_000), duration(3_600_000)]).toEqual([
      '850 ms',
      '1.0 s',
      '59.9 s',
      '4 min',
      '1.0 h',
    ]);
  });
});

describe('the triggers', () => {
  it('cover every webhook event of the contract, payment_session_complete in each outcome', () => {
    const events = Object.keys(contract.webhooks ?? {}).filter((name) => !name.endsWith('.legacy'));
    const names = triggerNames();
    for (const event of events)
      expect(
        names.some((name) => name === event || name.startsWith(`${event}.`)),
        event,
      ).toBe(true);
    expect(
      names
        .filter((name) => name.startsWith('payment_session_complete.'))
        .map((name) => name.split('.')[1])
        .sort(),
    ).toEqual(['authorized', 'canceled', 'captured', 'expired', 'ineligible', 'processing', 'rejected', 'voided']);
  });

  it('find a name, or the name an alias stands for; nothing else', () => {
    expect(findTrigger('dispute.closed')?.name).toBe('dispute.closed');
    expect(findTrigger('payment_session_complete')?.name).toBe('payment_session_complete.captured');
    expect(findTrigger('payment_token_updated')?.name).toBe('payment_token.updated');
    expect(findTrigger('dispute')).toBeUndefined();
    expect(findTrigger('constructor')).toBeUndefined();
  });

  it('list one line each, aliases after', () => {
    const lines = triggerList();
    expect(lines).toHaveLength(triggerNames().length + 2);
    for (const [i, line] of lines.entries()) {
      expect(line.startsWith(i < triggerNames().length ? triggerNames()[i]! : 'payment_')).toBe(true);
    }
    expect(lines.at(-2)).toMatch(/^payment_session_complete +the same as payment_session_complete\.captured$/);
  });
});

describe("the listener's secret", () => {
  const secret = randomBytes(32);

  it('is the same for the same database, channel and URL, and another when any of them changes', () => {
    const one = listenerSecret(secret, 'dev', 'http://localhost:3000/webhooks');
    expect(one).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    expect(listenerSecret(secret, 'dev', 'http://localhost:3000/webhooks')).toBe(one);
    expect(listenerSecret(secret, 'other', 'http://localhost:3000/webhooks')).not.toBe(one);
    expect(listenerSecret(secret, 'dev', 'http://localhost:3000/webhook')).not.toBe(one);
    expect(listenerSecret(randomBytes(32), 'dev', 'http://localhost:3000/webhooks')).not.toBe(one);
    // The channel and the URL are kept apart: no other split of the same text gives the same secret.
    expect(listenerSecret(secret, 'dev\nhttp:', '//localhost:3000/webhooks')).not.toBe(
      listenerSecret(secret, 'dev', 'http:\n//localhost:3000/webhooks'),
    );
  });
});

describe('what an event is about', () => {
  it('is its dispute, session, token or catalog item', () => {
    expect(eventObjectId({ dispute_id: 'd1', payment_id: 'p1' })).toBe('d1');
    expect(eventObjectId({ payment_id: 'p1', payment_token: 't1' })).toBe('p1');
    expect(eventObjectId({ payment_token: 't1' })).toBe('t1');
    expect(eventObjectId({ object: { sku: 'BPM-200' } })).toBe('BPM-200');
    expect(eventObjectId({ object: null })).toBeUndefined();
    expect(eventObjectId({ payment_id: 42 })).toBeUndefined();
    expect(eventObjectId(undefined)).toBeUndefined();
  });
});
