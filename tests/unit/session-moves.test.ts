// The payment-session state machine, called directly: which moves each status allows, the code
// and message of each refusal (the reference's Capture, Void and Cancel 400s), the capture
// amount's bounds and the 6.95-day hold (openapi/sandbox.yaml, "Hold expiry").
import { describe, expect, it } from 'vitest';
import { newSession } from '../../src/sandbox/domain/create-session.js';
import { Refusal } from '../../src/sandbox/domain/errors.js';
import {
  cancel,
  capture,
  completeCheckout,
  endIneligible,
  HOLD_VALIDITY_MS,
  review,
  voidHold,
} from '../../src/sandbox/domain/sessions.js';
import type { CreateSessionRequest, Session, SessionStatus } from '../../src/sandbox/domain/types.js';
import { thrown } from '../support/thrown.js';

const NOW = '2026-03-10T12:00:00.000Z';
const later = (ms: number) => new Date(Date.parse(NOW) + ms).toISOString();
const noCharges = { total_additional_charges: 0, total_discounts: 0 };

function session(kind: 'one_time_payment' | 'authorization', status?: SessionStatus): Session {
  let n = 0;
  const request: CreateSessionRequest = {
    total_amount: 5000,
    amount_details: noCharges,
    success_url: 'https://shop.example/ok',
    failure_url: 'https://shop.example/ko',
    kind,
    order_items: [{ name: 'Thermometer', sku: 'TH-10', quantity: 2, price: 2500, amount_details: noCharges }],
  };
  const made = newSession({ id: 'ps-1', channel: 'dev', request, now: NOW, newId: () => `id${++n}` });
  if (status !== undefined) made.status = status;
  return made;
}

/** An authorization session whose hold was placed at NOW. */
function authorized(): Session {
  const held = session('authorization');
  completeCheckout(held, NOW);
  return held;
}

const ids = () => {
  let n = 0;
  return () => `n${++n}`;
};

/** The refusal a move throws, as code and message. */
function refusal(run: () => unknown) {
  const error = thrown(run);
  expect(error).toBeInstanceOf(Refusal);
  const { code, message } = error as Refusal;
  return { code, message };
}

describe('the customer and review helpers', () => {
  it('completes the checkout of a pending session only', () => {
    expect(refusal(() => completeCheckout(session('one_time_payment', 'processing'), NOW))).toEqual({
      code: 'InvalidState',
      message: 'Only a pending session can complete checkout; this one is processing.',
    });
  });

  it('ends an ineligible checkout of a pending session only', () => {
    expect(refusal(() => endIneligible(session('one_time_payment', 'canceled'), NOW))).toEqual({
      code: 'InvalidState',
      message: 'Only a pending session can complete checkout; this one is canceled.',
    });
    expect(endIneligible(session('one_time_payment'), NOW)).toHaveLength(1);
  });

  it('reviews a processing session only', () => {
    expect(refusal(() => review(session('one_time_payment'), 'accept', NOW))).toEqual({
      code: 'InvalidState',
      message: 'Only a processing session can be reviewed; this one is pending.',
    });
    const hold = authorized();
    expect(refusal(() => review(hold, 'decline', NOW))).toEqual({
      code: 'InvalidState',
      message: 'Only a processing session can be reviewed; this one is authorized.',
    });
    expect(hold.status).toBe('authorized');
  });
});

describe('capture', () => {
  it('refuses a one-time payment, which was captured immediately', () => {
    expect(refusal(() => capture(session('one_time_payment', 'captured'), 100, undefined, NOW, ids()))).toEqual({
      code: 'ImmediateCapture',
      message: 'This session was not created with kind=authorization; it was captured immediately.',
    });
  });

  it('names why a hold that is not authorized cannot be captured', () => {
    const cases: [SessionStatus, string, string][] = [
      ['authorization_voided', 'SessionVoided', 'The authorization was voided.'],
      ['authorization_expired', 'SessionExpired', 'The hold expired and re-authorization failed.'],
      ['captured', 'SessionCaptured', 'The session is already captured.'],
      ['processing', 'SessionPending', 'The session is processing.'],
      ['rejected', 'SessionPending', 'The session is rejected.'],
    ];
    for (const [status, code, message] of cases) {
      const held = session('authorization', status);
      expect({ status, ...refusal(() => capture(held, 100, undefined, NOW, ids())) }).toEqual({
        status,
        code,
        message,
      });
      expect(held.status).toBe(status);
    }
  });

  it('takes an amount greater than 0 and at most the original total, in whole cents', () => {
    for (const amount of [0, -1, 1.5, 5001]) {
      expect({ amount, ...refusal(() => capture(authorized(), amount, undefined, NOW, ids())) }).toEqual({
        amount,
        code: 'TotalAmountInvalid',
        message: `total_amount must be greater than 0 and at most the original total_amount 5000; got ${amount}.`,
      });
    }
    const held = authorized();
    expect(capture(held, 1, undefined, NOW, ids()).captureId).toBe('cap_n1');
    expect(held).toMatchObject({ status: 'captured', capture_amount: 1 });
  });

  it('captures a hold exactly 6.95 days old, and fails one a millisecond older', () => {
    expect(HOLD_VALIDITY_MS).toBe(600480 * 1000);
    const onTime = authorized();
    expect(capture(onTime, 5000, undefined, later(HOLD_VALIDITY_MS), ids())).toMatchObject({ captureId: 'cap_n1' });
    expect(onTime.status).toBe('captured');

    const late = authorized();
    const result = capture(late, 5000, 'k-1', later(HOLD_VALIDITY_MS + 1), ids());
    // A failed capture has no capture id: nothing was captured.
    expect(result.captureId).toBe('');
    expect(result.failure).toBeInstanceOf(Refusal);
    expect({ code: result.failure?.code, message: result.failure?.message }).toEqual({
      code: 'SessionExpired',
      message: 'The hold expired (6.95 days) and re-authorization failed.',
    });
    expect(result.events.map((e) => e.data.status)).toEqual(['authorization_expired']);
    expect(late).toMatchObject({
      status: 'authorization_expired',
      capture_failed_on: later(HOLD_VALIDITY_MS + 1),
      capture_keys: {},
    });
    expect(late.capture_id).toBeUndefined();
  });
});

describe('void', () => {
  it('refuses a session that is not of kind=authorization', () => {
    expect(refusal(() => voidHold(session('one_time_payment', 'processing'), undefined, NOW, ids()))).toEqual({
      code: 'ImmediateCapture',
      message: 'This session is not of kind=authorization: there is no hold to void.',
    });
  });

  it('refuses a captured hold: it is refunded instead', () => {
    const held = authorized();
    capture(held, 5000, undefined, NOW, ids());
    expect(refusal(() => voidHold(held, undefined, NOW, ids()))).toEqual({
      code: 'SessionCaptured',
      message: 'The session is captured: refund it instead.',
    });
  });

  it('answers a repeated void, with or without a key, with the first void id and no new webhook', () => {
    const held = authorized();
    const first = voidHold(held, undefined, NOW, ids());
    expect(first.voidId).toBe('void_n1');
    expect(first.events.map((e) => e.data.status)).toEqual(['authorization_voided']);
    expect(voidHold(held, undefined, later(1000), () => 'other')).toEqual({ voidId: 'void_n1', events: [] });
    expect(voidHold(held, 'k-2', later(2000), () => 'other')).toEqual({ voidId: 'void_n1', events: [] });
    expect(held.void_keys).toEqual({ 'k-2': 'void_n1' });
    expect(held.void_id).toBe('void_n1');
  });
  it('answers a void of an expired hold with a void id, the same each time, and changes nothing else', () => {
    const held = authorized();
    capture(held, 5000, undefined, later(HOLD_VALIDITY_MS + 1), ids());
    expect(voidHold(held, undefined, later(HOLD_VALIDITY_MS + 2), ids())).toEqual({ voidId: 'void_n1', events: [] });
    expect(voidHold(held, 'k-1', later(HOLD_VALIDITY_MS + 3), () => 'other')).toEqual({
      voidId: 'void_n1',
      events: [],
    });
    expect(held).toMatchObject({
      status: 'authorization_expired',
      void_id: 'void_n1',
      void_keys: { 'k-1': 'void_n1' },
    });
  });
});

describe('cancel', () => {
  it('refuses a captured session: it is refunded instead', () => {
    expect(refusal(() => cancel(session('one_time_payment', 'captured'), NOW))).toEqual({
      code: 'SessionCaptured',
      message: 'The session is captured: refund it instead.',
    });
  });

  it('refuses a session whose customer entered a card: it is voided instead', () => {
    expect(refusal(() => cancel(authorized(), NOW))).toEqual({
      code: 'SessionAuthorized',
      message: 'The customer already entered a card: void the authorization instead.',
    });
  });

  it('refuses a one-time payment under review with a way that works: wait for the webhook, then refund (a void answers ImmediateCapture)', () => {
    const processing = session('one_time_payment', 'processing');
    const refused = refusal(() => cancel(processing, NOW));
    expect(refused.code).toBe('SessionAuthorized');
    expect(refused.message).toContain(
      'wait for the payment_session_complete webhook, then refund it if it was captured',
    );
    expect(refused.message).not.toContain('void');
    expect(refusal(() => voidHold(processing, undefined, NOW, ids())).code).toBe('ImmediateCapture');
  });
});
