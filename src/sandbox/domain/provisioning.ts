// Provision token requests: what create payment token, update payment token and a create-session
// 422 ask of the customer, and how the customer's and the clinician's answers move them. Pure: each
// move takes the request and the facts it needs, changes the request, and says what follows.
import type { components } from '../../../generated/schema.js';
import type { Card } from './cards.js';
import { helperRefusal } from './errors.js';
import { aYearOn, dayOf, type LetterStatus } from './letters.js';

export type CreatePaymentTokenRequest = components['schemas']['CreatePaymentTokenRequest'];
export type ProvisionPurpose = 'setup' | 'update' | 'fix';
export type ProvisionStatus = 'awaiting_customer' | 'awaiting_letter' | 'provisioned' | 'rejected' | 'canceled';
/** What the customer has to do on the page: retake the health survey, enter a card. */
export type Need = 'survey' | 'card';

export interface ProvisionRequest {
  id: string;
  channel: string;
  created_at: string;
  purpose: ProvisionPurpose;
  status: ProvisionStatus;
  /** Whose letters count: the email, lower-cased, or the request itself when it names none. */
  customer_key: string;
  idempotency_key?: string;
  /** The create payment token request as accepted (setup), for idempotency comparison. */
  request?: CreatePaymentTokenRequest;
  /** The token this request issued (setup) or fixes (update, fix). */
  payment_token?: string;
  needs: Need[];
  /** The items the survey is about: an update's order items (by sku); none for a setup. */
  skus?: string[];
  /** The card entered while a letter awaits the clinician. */
  card?: Card;
  success_url: string;
  failure_url: string;
  use_iframe: boolean;
  customer_email?: string;
  customer_name?: string;
  metadata?: string;
  /** Where the customer was sent when the page ended. */
  redirect_url?: string;
}

/** The customer key of an email: emails match case-insensitively. */
export const customerKeyOf = (email: string | undefined, fallback: string) =>
  email !== undefined && email.trim() !== '' ? email.trim().toLowerCase() : fallback;

/** The fields of a create payment token retry that differ from the original; the email case-insensitively. */
export function divergingSetupFields(original: CreatePaymentTokenRequest, retry: CreatePaymentTokenRequest): string[] {
  const names = new Set([...Object.keys(original), ...Object.keys(retry)].filter((name) => name !== 'idempotency_key'));
  const same = (name: string) => {
    const a = (original as Record<string, unknown>)[name];
    const b = (retry as Record<string, unknown>)[name];
    if (name === 'customer_email' && typeof a === 'string' && typeof b === 'string')
      return a.toLowerCase() === b.toLowerCase();
    return JSON.stringify(a) === JSON.stringify(b);
  };
  return [...names].filter((name) => !same(name)).sort();
}

/** The customer's answers on the page (POST /sandbox/v1/provision_requests/{id}/complete, or the hosted page). */
export interface CustomerAnswers {
  /** The customer leaves the page without finishing it: sent to failure_url, nothing changes. */
  cancel: boolean;
  eligible: boolean;
  /** The card entered, when the page asked for one or the customer gave one. */
  card?: Card;
  /** The catalog items the survey covers that need a letter. */
  lmnSkus: string[];
  letter: LetterStatus;
  lmnExpiresOn?: string;
}

/** What a move of a request leads to, for the caller to store. */
export interface ProvisionOutcome {
  /** A letter to record for the customer: requested by the survey, or decided by the clinician. */
  letter?: { status: LetterStatus; skus: string[]; expires_on: string | null };
  /** The request is provisioned: issue the token (setup) or fix it (update, fix) with this card, if any. */
  provision?: { card?: Card };
}

/** An approved letter must stand at least today: an expiry in the past would be a letter already lapsed. */
function checkExpiry(expiresOn: string | undefined, now: string): void {
  if (expiresOn !== undefined && expiresOn < dayOf(now)) {
    throw helperRefusal(
      'InvalidRequest',
      `lmn_expires_at ${expiresOn} is before the sandbox clock's date, ${dayOf(now)}.`,
    );
  }
}

function awaiting(request: ProvisionRequest, status: ProvisionStatus, what: string): void {
  if (request.status !== status) {
    throw helperRefusal(
      'InvalidState',
      `Provision token request ${request.id} is ${request.status}; only a request ${what} can be ` +
        `${status === 'awaiting_customer' ? 'completed' : 'decided'}.`,
    );
  }
}

/** The customer finishes the page: the survey (when asked), the letter it may request, the card. */
export function completeByCustomer(request: ProvisionRequest, answers: CustomerAnswers, now: string): ProvisionOutcome {
  awaiting(request, 'awaiting_customer', 'awaiting the customer');
  checkExpiry(answers.lmnExpiresOn, now);
  if (answers.cancel) {
    request.status = 'canceled';
    return {};
  }
  const surveyed = request.purpose === 'setup' || request.needs.includes('survey');
  if (surveyed && !answers.eligible) {
    request.status = 'rejected';
    request.needs = [];
    return { letter: { status: 'rejected', skus: answers.lmnSkus, expires_on: null } };
  }
  const card = answers.card;
  request.needs = [];
  if (surveyed && answers.lmnSkus.length > 0) {
    const expiresOn = answers.letter === 'approved' ? (answers.lmnExpiresOn ?? aYearOn(now)) : null;
    const letter = { status: answers.letter, skus: answers.lmnSkus, expires_on: expiresOn };
    if (answers.letter === 'pending') {
      request.status = 'awaiting_letter';
      if (card) request.card = card;
      return { letter };
    }
    if (answers.letter === 'rejected') {
      request.status = 'rejected';
      return { letter };
    }
    request.status = 'provisioned';
    return { letter, provision: card ? { card } : {} };
  }
  request.status = 'provisioned';
  return { provision: card ? { card } : {} };
}

/** The clinician decides the letter a finished survey requested: its new status and expiry, and what follows. */
export function decideByClinician(
  request: ProvisionRequest,
  decision: 'approve' | 'reject',
  now: string,
  expiresOn?: string,
): { decided: { status: LetterStatus; expires_on: string | null }; provision?: { card?: Card } } {
  awaiting(request, 'awaiting_letter', 'awaiting its letter');
  checkExpiry(expiresOn, now);
  if (decision === 'reject') {
    request.status = 'rejected';
    return { decided: { status: 'rejected', expires_on: null } };
  }
  request.status = 'provisioned';
  const card = request.card;
  delete request.card;
  return { decided: { status: 'approved', expires_on: expiresOn ?? aYearOn(now) }, provision: card ? { card } : {} };
}

/** Where the customer goes when the page ends: failure_url when rejected or canceled there, else success_url. */
export const endOfPage = (request: ProvisionRequest) =>
  request.status === 'rejected' || request.status === 'canceled' ? request.failure_url : request.success_url;
