// What `listen` takes from a sandbox's answers is checked before use (src/sandbox/cli/sandbox-answers.ts):
// a registration names a listener, a claim a list of deliveries each of the helper document's shape,
// a report the attempt's record; and a claim gives no more to forward than it asked for.
import { describe, expect, it } from 'vitest';
import { chooseDeliveries, deliveryFault, listenerFault, outcomeFault } from '../../src/sandbox/cli/sandbox-answers.js';
import { deliveryOf, listenerOf, outcome } from '../support/fake-sandbox.js';

describe("a registration's answer", () => {
  it('is a listener: an id, a secret, a forward URL and a list of event types', () => {
    expect(listenerFault(listenerOf('http://localhost:3000/webhooks'))).toBeUndefined();
    const cases: Array<[unknown, string]> = [
      [null, 'it is not an object'],
      [[], 'it is not an object'],
      ['wl_1', 'it is not an object'],
      [{ ...listenerOf('x'), id: 42 }, 'its id is not a string'],
      [{ ...listenerOf('x'), id: '' }, 'its id is not a string'],
      [{ ...listenerOf('x'), secret: null }, 'its secret is not a string'],
      [{ ...listenerOf('x'), forward_url: {} }, 'its forward_url is not a string'],
      [{ ...listenerOf('x'), event_types: '*' }, 'its event_types is not a list of strings'],
      [{ ...listenerOf('x'), event_types: ['*', 1] }, 'its event_types is not a list of strings'],
    ];
    for (const [answer, fault] of cases) expect(listenerFault(answer), JSON.stringify(answer)).toBe(fault);
  });
});

describe('a claimed delivery', () => {
  it("has the helper document's shape, or the first field that has not is named", () => {
    expect(deliveryFault(deliveryOf())).toBeUndefined();
    expect(deliveryFault(deliveryOf({ object_id: null, attempt: 3, delivery_id: '123456789012345' }))).toBeUndefined();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ delivery_id: 12 }, 'its delivery_id is not a delivery id (1 to 15 digits)'],
      [{ delivery_id: '1234567890123456' }, 'its delivery_id is not a delivery id (1 to 15 digits)'],
      [{ delivery_id: '1x' }, 'its delivery_id is not a delivery id (1 to 15 digits)'],
      [{ delivery_id: 'x1' }, 'its delivery_id is not a delivery id (1 to 15 digits)'],
      [{ claim_id: 'lc_' }, 'its claim_id is not a claim id (lc_…)'],
      [{ claim_id: 'lc_a-b' }, 'its claim_id is not a claim id (lc_…)'],
      [{ claim_id: 'xlc_1' }, 'its claim_id is not a claim id (lc_…)'],
      [{ claim_id: `lc_${'a'.repeat(41)}` }, 'its claim_id is not a claim id (lc_…)'],
      [{ claim_id: 1 }, 'its claim_id is not a claim id (lc_…)'],
      [{ event_type: 42 }, 'its event_type is not a string'],
      [{ object_id: 42 }, 'its object_id is not a string or null'],
      [{ object_id: undefined }, 'its object_id is not a string or null'],
      [{ attempt: 0 }, 'its attempt is not a whole number from 1'],
      [{ attempt: 1.5 }, 'its attempt is not a whole number from 1'],
      [{ attempt: '1' }, 'its attempt is not a whole number from 1'],
      [{ request_body: {} }, 'its request_body is not a string'],
      [{ request_headers: null }, 'its request_headers is not an object'],
      [{ request_headers: [] }, 'its request_headers is not an object'],
    ];
    for (const [over, fault] of cases) expect(deliveryFault(deliveryOf(over)), JSON.stringify(over)).toBe(fault);
    expect(deliveryFault(deliveryOf({ claim_id: `lc_${'a'.repeat(40)}` }))).toBeUndefined();
  });
});

describe("a report's answer", () => {
  it("is the attempt's record: its status, when, how long, and when the next is due", () => {
    expect(outcomeFault(outcome)).toBeUndefined();
    expect(outcomeFault({ ...outcome, next_attempt_at: '2026-11-23T10:00:01.000Z' })).toBeUndefined();
    const attempt = (over: Record<string, unknown>) => ({ ...outcome, attempt: { ...outcome.attempt, ...over } });
    const cases: Array<[unknown, string]> = [
      [null, 'it is not an object'],
      [{ next_attempt_at: null }, 'its attempt is not an object'],
      [{ ...outcome, next_attempt_at: 'soon' }, 'its next_attempt_at is not a time or null'],
      [{ ...outcome, next_attempt_at: 1 }, 'its next_attempt_at is not a time or null'],
      [attempt({ delivery_status: 1 }), 'its attempt: delivery_status is not a string'],
      [attempt({ attempted_at: 'x' }), 'its attempt: attempted_at is not a time'],
      [attempt({ attempted_at: 0 }), 'its attempt: attempted_at is not a time'],
      [attempt({ latency_ms: '1' }), 'its attempt: latency_ms is not a number'],
      [attempt({ latency_ms: Number.NaN }), 'its attempt: latency_ms is not a number'],
    ];
    for (const [answer, fault] of cases) expect(outcomeFault(answer), JSON.stringify(answer)).toBe(fault);
  });
});

describe('the deliveries a claim forwards', () => {
  const numbered = (n: number) => deliveryOf({ delivery_id: String(n), claim_id: `lc_${n}` });

  it('are none of an answer without a list of deliveries', () => {
    for (const answer of [null, 'x', [], {}, { deliveries: 'abc' }, { deliveries: {} }]) {
      expect(chooseDeliveries(answer, 8, []), JSON.stringify(answer)).toBeUndefined();
    }
    expect(chooseDeliveries({ deliveries: [] }, 8, [])).toEqual({ forward: [], skipped: [] });
  });

  it('are at most as many as asked, the first ones, the rest said in one line', () => {
    const deliveries = Array.from({ length: 300 }, (_, i) => numbered(i + 1));
    const { forward, skipped } = chooseDeliveries({ deliveries }, 8, [])!;
    expect(forward.map((d) => d.delivery_id)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
    expect(skipped).toEqual([
      'skipped 292 deliveries beyond the 8 asked for: the sandbox handed more; they come again when their lease ends',
    ]);
    expect(chooseDeliveries({ deliveries: deliveries.slice(0, 3) }, 3, [])).toEqual({
      forward: deliveries.slice(0, 3),
      skipped: [],
    });
  });

  it('are each once, and none in flight', () => {
    const { forward, skipped } = chooseDeliveries(
      { deliveries: [numbered(1), numbered(2), numbered(1), numbered(3)] },
      8,
      [2],
    )!;
    expect(forward.map((d) => d.delivery_id)).toEqual(['1', '3']);
    expect(skipped).toEqual(['skipped 2 deliveries the sandbox handed twice, or while they are being forwarded']);
  });

  it('leave out what is no delivery, one line each for the first 8, then a count', () => {
    const bad = Array.from({ length: 10 }, (_, i) => deliveryOf({ delivery_id: `x${i}` }));
    const { forward, skipped } = chooseDeliveries({ deliveries: [numbered(1), ...bad, 7, numbered(2)] }, 8, [])!;
    expect(forward.map((d) => d.delivery_id)).toEqual(['1', '2']);
    expect(skipped).toHaveLength(9);
    expect(skipped[0]).toBe(
      "skipped delivery 2 of the sandbox's answer, which is not one: its delivery_id is not a delivery id " +
        '(1 to 15 digits) (delivery_id "x0")',
    );
    expect(skipped[7]).toMatch(/^skipped delivery 9 of .*\(delivery_id "x7"\)$/);
    expect(skipped[8]).toBe("skipped 3 more of the sandbox's answer, which are not deliveries");
  });

  it('quote at most 100 characters of what is left out', () => {
    const long = 'x'.repeat(300);
    const { skipped } = chooseDeliveries({ deliveries: [deliveryOf({ delivery_id: long }), long] }, 8, [])!;
    expect(skipped[0]).toBe(
      `skipped delivery 1 of the sandbox's answer, which is not one: its delivery_id is not a delivery id ` +
        `(1 to 15 digits) (delivery_id "${'x'.repeat(99)}…)`,
    );
    expect(skipped[1]).toBe(
      `skipped delivery 2 of the sandbox's answer, which is not one: it is not an object (delivery_id "${'x'.repeat(99)}…)`,
    );
    expect(chooseDeliveries({ deliveries: [undefined] }, 8, [])!.skipped).toEqual([
      "skipped delivery 1 of the sandbox's answer, which is not one: it is not an object (delivery_id undefined)",
    ]);
  });
});
