// The payment-session state machine: checkout, review, capture, void, cancel. Pure: each move
// takes the session and the time, changes the session, and returns the webhook events it causes.
import { storedItemTotal } from './amounts.js';
import { helperRefusal, refusalsOf, type Refusal } from './errors.js';
import { completionEvent } from './events.js';
import type { DomainEvent, Session } from './types.js';

const refuseCapture = refusalsOf('capturePaymentSession');
const refuseVoid = refusalsOf('voidPaymentSession');
const refuseCancel = refusalsOf('cancelPaymentSession');

/** An authorization hold stays valid for 6.95 days. */
export const HOLD_VALIDITY_MS = 6.95 * 24 * 60 * 60 * 1000;

/**
 * The customer entered payment information: pending → processing (one-time) or authorized (hold).
 * A token the session issues is activated by the caller, which queues its payment_token.updated.
 */
export function completeCheckout(session: Session, now: string): DomainEvent[] {
  if (session.status !== 'pending') {
    throw helperRefusal('InvalidState', `Only a pending session can complete checkout; this one is ${session.status}.`);
  }
  const events: DomainEvent[] = [];
  if (session.kind === 'authorization') {
    session.status = 'authorized';
    session.authorized_at = now;
    events.push(completionEvent(session, now));
  } else {
    // The hosted flow ends here: its outcome (processing, under review) is reported now; the
    // capture is reported after the review.
    session.status = 'processing';
    session.authorized_at = now;
    events.push(completionEvent(session, now));
  }
  return events;
}

/** The survey found the customer ineligible: the flow ends at failure_url, and its outcome is reported. */
export function endIneligible(session: Session, now: string): DomainEvent[] {
  if (session.status !== 'pending') {
    throw helperRefusal('InvalidState', `Only a pending session can complete checkout; this one is ${session.status}.`);
  }
  return [completionEvent(session, now)];
}

/** The service's review of a one-time payment: processing → captured | rejected. */
export function review(session: Session, decision: 'accept' | 'decline', now: string): DomainEvent[] {
  if (session.status !== 'processing') {
    throw helperRefusal('InvalidState', `Only a processing session can be reviewed; this one is ${session.status}.`);
  }
  if (decision === 'accept') {
    session.status = 'captured';
    applyCapture(session, session.total_amount, now);
  } else {
    session.status = 'rejected';
  }
  return [completionEvent(session, now)];
}

/** Attributes a captured amount to the items in order, up to each item's total. */
function applyCapture(session: Session, amount: number, now: string): void {
  session.capture_amount = amount;
  session.captured_at = now;
  let left = amount;
  for (const item of session.items) {
    item.captured = Math.max(0, Math.min(left, storedItemTotal(item)));
    left -= item.captured;
  }
}

export function holdExpired(session: Session, now: string): boolean {
  return session.authorized_at !== undefined && Date.parse(now) - Date.parse(session.authorized_at) > HOLD_VALIDITY_MS;
}

export interface CaptureResult {
  captureId: string;
  events: DomainEvent[];
  /** The capture failed (expired hold); the change must still be stored. */
  failure?: Refusal;
}

export function capture(
  session: Session,
  amount: number,
  key: string | undefined,
  now: string,
  newId: () => string,
): CaptureResult {
  if (key !== undefined && session.capture_keys[key]) return { captureId: session.capture_keys[key], events: [] };
  if (session.kind !== 'authorization') {
    throw refuseCapture(
      'ImmediateCapture',
      'This session was not created with kind=authorization; it was captured immediately.',
    );
  }
  switch (session.status) {
    case 'pending':
    case 'canceled':
      throw refuseCapture('SessionPending', 'The customer has not finished checkout: no hold exists yet.');
    case 'authorization_voided':
      throw refuseCapture('SessionVoided', 'The authorization was voided.');
    case 'authorization_expired':
      throw refuseCapture('SessionExpired', 'The hold expired and re-authorization failed.');
    case 'captured':
      throw refuseCapture('SessionCaptured', 'The session is already captured.');
    case 'authorized':
      break;
    default:
      throw refuseCapture('SessionPending', `The session is ${session.status}.`);
  }
  if (!Number.isSafeInteger(amount) || amount <= 0 || amount > session.total_amount) {
    throw refuseCapture(
      'TotalAmountInvalid',
      `total_amount must be greater than 0 and at most the original total_amount ${session.total_amount}; got ` +
        `${amount}.`,
    );
  }
  if (holdExpired(session, now)) {
    session.status = 'authorization_expired';
    session.capture_failed_on = now;
    return {
      captureId: '',
      events: [completionEvent(session, now)],
      failure: refuseCapture('SessionExpired', 'The hold expired (6.95 days) and re-authorization failed.'),
    };
  }
  const captureId = `cap_${newId()}`;
  session.status = 'captured';
  session.capture_id = captureId;
  if (key !== undefined) session.capture_keys[key] = captureId;
  applyCapture(session, amount, now);
  return { captureId, events: [completionEvent(session, now)] };
}

export function voidHold(
  session: Session,
  key: string | undefined,
  now: string,
  newId: () => string,
): { voidId: string; events: DomainEvent[] } {
  if (key !== undefined && session.void_keys[key]) return { voidId: session.void_keys[key], events: [] };
  if (session.kind !== 'authorization') {
    throw refuseVoid('ImmediateCapture', 'This session is not of kind=authorization: there is no hold to void.');
  }
  const remember = (voidId: string) => {
    if (key !== undefined) session.void_keys[key] = voidId;
    return voidId;
  };
  switch (session.status) {
    case 'pending':
    case 'canceled':
      throw refuseVoid('SessionPending', 'No hold exists yet.');
    case 'captured':
      throw refuseVoid('SessionCaptured', 'The session is captured: refund it instead.');
    case 'authorization_voided':
    case 'authorization_expired':
      // Nothing left to release: the sandbox answers with the void id (a voided hold has had one
      // since its void; an expired one gets one on its first void) and changes nothing.
      session.void_id ??= `void_${newId()}`;
      return { voidId: remember(session.void_id), events: [] };
  }
  // authorized, the only other status of a hold: release it.
  session.status = 'authorization_voided';
  session.void_id = `void_${newId()}`;
  return { voidId: remember(session.void_id), events: [completionEvent(session, now)] };
}

export function cancel(session: Session, now: string): DomainEvent[] {
  switch (session.status) {
    case 'pending':
      session.status = 'canceled';
      session.canceled_at = now;
      return [completionEvent(session, now)];
    case 'captured':
      throw refuseCancel('SessionCaptured', 'The session is captured: refund it instead.');
    case 'authorized':
      throw refuseCancel('SessionAuthorized', 'The customer already entered a card: void the authorization instead.');
    case 'processing':
      // A one-time payment under review has no hold to void: the review captures or rejects it.
      throw refuseCancel(
        'SessionAuthorized',
        'The customer already entered a card, and the payment is under review: wait for the ' +
          'payment_session_complete webhook, then refund it if it was captured (a rejected one charges nothing).',
      );
    default:
      // canceled, rejected, voided or expired: already final, so the same result and no new webhook.
      return [];
  }
}
