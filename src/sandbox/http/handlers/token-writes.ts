// The moves of payment tokens that more than one caller makes (the contract's operations, the
// helpers, and later the hosted pages): each applies a domain outcome to the store, with its
// webhook events, inside the caller's transaction.
import { provisionUrl } from '../../checkout/urls.js';
import { defaultCard, type Card } from '../../domain/cards.js';
import { resolveRedirect } from '../../domain/create-session.js';
import { aYearOn, standingLetter, type Letter } from '../../domain/letters.js';
import { tokenUpdatedEvent } from '../../domain/payment-tokens.js';
import { customerKeyOf, endOfPage, type Need, type ProvisionOutcome, type ProvisionRequest } from '../../domain/provisioning.js';
import type { DomainEvent, PaymentTokenRecord, Session } from '../../domain/types.js';
import { deliveryId, type IdSource } from '../../ids.js';
import type { Store } from '../../store/index.js';

export interface WriteContext {
  channel: string;
  now: string;
  ids: IdSource;
}

export function queueEvents(store: Store, context: WriteContext, events: DomainEvent[]): void {
  // The delivery id is fixed now, so that every retry of the event carries the same one.
  for (const event of events) store.outbox.enqueue(context.channel, event, context.now, deliveryId(context.ids));
}

export const lettersOf = (store: Store, channel: string, customerKey: string): Letter[] => store.letters.ofCustomer(channel, customerKey);

/** A new provision request of a token (an update, or a 422's fix), or its open one with these needs. */
export function requestForToken(store: Store, context: WriteContext, token: PaymentTokenRecord, purpose: 'update' | 'fix', needs: Need[], skus: string[]): ProvisionRequest {
  const open = store.provisionRequests.openForToken(context.channel, token.token);
  if (open) {
    open.needs = [...new Set([...open.needs, ...needs])];
    open.skus = [...new Set([...(open.skus ?? []), ...skus])];
    store.provisionRequests.update(open);
    return open;
  }
  const request: ProvisionRequest = {
    id: context.ids.uuid(), channel: context.channel, created_at: context.now, purpose, status: 'awaiting_customer',
    customer_key: token.customer_key, payment_token: token.token, needs, skus,
    // The token's later pages send the customer where its setup did (openapi/sandbox.yaml).
    success_url: token.success_url ?? 'about:blank', failure_url: token.failure_url ?? 'about:blank', use_iframe: false,
    ...(token.customer_email !== null ? { customer_email: token.customer_email } : {}),
    ...(token.customer_name !== null ? { customer_name: token.customer_name } : {}),
    ...(token.metadata !== null ? { metadata: token.metadata } : {}),
  };
  store.provisionRequests.insert(request);
  return request;
}

/** Issues the token of a provisioned setup request. */
function issueToken(store: Store, context: WriteContext, request: ProvisionRequest, card: Card): PaymentTokenRecord {
  const token: PaymentTokenRecord = {
    token: `ptok_${context.ids.short()}`, channel: context.channel, session_id: null, status: 'active', next_action: null, created_at: context.now,
    customer_email: request.customer_email ?? null, customer_name: request.customer_name ?? null, customer_key: request.customer_key,
    card_brand: card.brand, card_last4: card.last4, card_expires: card.expires, lmn_expires_at: null,
    provision_request_id: request.id, metadata: request.metadata ?? null, success_url: request.success_url, failure_url: request.failure_url,
  };
  store.tokens.insert(token);
  request.payment_token = token.token;
  return token;
}

/**
 * Stores what a customer's or clinician's move of a request led to: its letter, and once it is
 * provisioned, the issued or fixed token and its payment_token.updated event.
 */
export function applyOutcome(store: Store, context: WriteContext, request: ProvisionRequest, outcome: ProvisionOutcome): void {
  if (outcome.letter) {
    if (store.letters.ofRequest(request.id)) store.letters.decide(request.id, outcome.letter.status, outcome.letter.expires_on);
    else store.letters.add(context.channel, { customer_key: request.customer_key, provision_request_id: request.id, created_at: context.now, ...outcome.letter });
  }
  if (outcome.provision) {
    let token: PaymentTokenRecord;
    if (request.purpose === 'setup') {
      token = issueToken(store, context, request, outcome.provision.card ?? defaultCard(context.now));
      // A letter approved before this token existed counts for it too.
      const standing = standingLetter(store.letters.ofCustomer(context.channel, request.customer_key), context.now);
      if (standing) store.tokens.setLetterExpiry(context.channel, request.customer_key, standing.expires_on!);
    } else {
      token = store.tokens.get(context.channel, request.payment_token!)!;
      if (outcome.provision.card) store.tokens.setCard(context.channel, token.token, outcome.provision.card);
      store.tokens.setNextAction(context.channel, token.token, null);
    }
    if (outcome.letter?.status === 'approved') store.tokens.setLetterExpiry(context.channel, request.customer_key, outcome.letter.expires_on!);
    const fresh = store.tokens.get(context.channel, token.token)!;
    queueEvents(store, context, [tokenUpdatedEvent(fresh, { provision_token_request_id: request.id })]);
  }
  // The page has ended for the customer once the request no longer awaits them, a letter pending or not.
  if (request.status !== 'awaiting_customer') request.redirect_url = endOfPage(request);
  store.provisionRequests.update(request);
}

/** The sandbox's whole record of a provision request (inspect, and the helpers' answers). */
export function inspectRequest(store: Store, origin: string, request: ProvisionRequest) {
  const letter = store.letters.ofRequest(request.id);
  return {
    provision_token_request_id: request.id,
    purpose: request.purpose,
    status: request.status,
    payment_token: request.status === 'provisioned' ? request.payment_token ?? null : null,
    needs: request.needs,
    letter: letter ? { status: letter.status, skus: letter.skus, lmn_expires_at: letter.expires_on } : null,
    redirect_url: request.redirect_url ?? provisionUrl(origin, request),
    created_at: request.created_at,
  };
}

/** The skus of these items that the channel's catalog says need a letter of medical necessity. */
export function lmnSkusOf(store: Store, channel: string, items: ReadonlyArray<{ sku?: string }>): string[] {
  const skus = [...new Set(items.flatMap((item) => (item.sku !== undefined ? [item.sku] : [])))];
  if (skus.length === 0) return [];
  const eligibility = store.catalog.eligibilityOf(channel, skus);
  return skus.filter((sku) => eligibility.get(sku) === 'eligible_with_lmn');
}

/**
 * The checkout of a tokenize=true session completed: its token becomes usable with the card the
 * customer entered, the survey's letter covers the session's items that need one, and
 * payment_token.updated is queued.
 */
export function activateIssuedToken(store: Store, context: WriteContext, session: Session, card: Card): void {
  const tokenId = session.issued_payment_token!;
  const token = store.tokens.get(context.channel, tokenId)!;
  store.tokens.setStatus(context.channel, tokenId, 'active');
  store.tokens.setCard(context.channel, tokenId, card);
  const lmnSkus = lmnSkusOf(store, context.channel, session.items);
  if (lmnSkus.length > 0) {
    const expiresOn = aYearOn(context.now);
    store.letters.add(context.channel, { customer_key: token.customer_key, provision_request_id: null, status: 'approved', skus: lmnSkus, expires_on: expiresOn, created_at: context.now });
    store.tokens.setLetterExpiry(context.channel, token.customer_key, expiresOn);
  }
  queueEvents(store, context, [tokenUpdatedEvent(store.tokens.get(context.channel, tokenId)!, { payment_session_id: session.id })]);
}

/** The token a tokenize=true session issues: not usable until its checkout completes. */
export function pendingSessionToken(session: Session, token: string): PaymentTokenRecord {
  return {
    token, channel: session.channel, session_id: session.id, status: 'pending_checkout', next_action: null, created_at: session.created_at,
    customer_email: session.customer_email ?? null, customer_name: session.customer_name ?? null,
    customer_key: customerKeyOf(session.customer_email, `session:${session.id}`),
    card_brand: null, card_last4: null, card_expires: null, lmn_expires_at: null, provision_request_id: null,
    metadata: session.request.metadata ?? null,
    success_url: resolveRedirect(session.request.success_url, session.id), failure_url: resolveRedirect(session.request.failure_url, session.id),
  };
}
