// The moves of payment tokens that more than one caller makes (the contract's operations, the
// helpers and the hosted pages): each applies a domain outcome to the store, with its
// webhook events, inside the caller's transaction.
import { provisionUrl } from '../checkout/urls.js';
import { defaultCard, type Card } from '../domain/cards.js';
import { resolveRedirect } from '../domain/create-session.js';
import { aYearOn, eligibilityOf, tokenLetterExpiry, type Letter } from '../domain/letters.js';
import { tokenUpdatedEvent } from '../domain/payment-tokens.js';
import {
  customerKeyOf,
  endOfPage,
  type Need,
  type ProvisionOutcome,
  type ProvisionRequest,
} from '../domain/provisioning.js';
import type { PaymentTokenRecord, Session } from '../domain/types.js';
import type { SandboxStore } from '../store/store.js';
import { queueEvents, type WriteContext } from './event-queue.js';

export const lettersOf = async (store: SandboxStore, channel: string, customerKey: string): Promise<Letter[]> =>
  await store.letters.ofCustomer(channel, customerKey);

/** The eligibility answer from a customer's letters (and a provision request's own letter, when keyed on one). */
export async function customerEligibility(
  store: SandboxStore,
  channel: string,
  customerKey: string,
  now: string,
  keyedOn?: ProvisionRequest,
) {
  const letters = await lettersOf(store, channel, customerKey);
  const own = keyedOn ? await store.letters.ofRequest(keyedOn.id) : undefined;
  // The survey of a request the customer left (canceled) was never finished, as one still awaiting them.
  const surveyFinished = keyedOn ? keyedOn.status !== 'awaiting_customer' && keyedOn.status !== 'canceled' : true;
  return eligibilityOf(
    letters,
    own,
    surveyFinished,
    await store.catalog.facts(
      channel,
      letters.flatMap((l) => l.skus),
    ),
    now,
  );
}

/** Every token of the customer shows the same letter expiry, recomputed whenever their letters change. */
async function refreshLetterExpiry(store: SandboxStore, context: WriteContext, customerKey: string): Promise<void> {
  const expiry = tokenLetterExpiry(await lettersOf(store, context.channel, customerKey), context.now);
  await store.tokens.setLetterExpiry(context.channel, customerKey, expiry);
}

/** Where the pages of a token's request send the customer. */
export interface PageExits {
  success_url: string;
  failure_url: string;
}

/**
 * The open provision request of a token, or a new one (an update, or a 422's fix) with these needs.
 * One that awaits the clinician is returned as it is: the customer has done their part. One that
 * awaits the customer gains the new needs, and a fix the exits of the latest refused charge.
 */
export async function requestForToken(
  store: SandboxStore,
  context: WriteContext & { origin: string },
  token: PaymentTokenRecord,
  purpose: 'update' | 'fix',
  needs: Need[],
  skus: string[],
  exits?: PageExits,
): Promise<ProvisionRequest> {
  const open = await store.provisionRequests.openForToken(context.channel, token.token);
  const withLetter = open.find((r) => r.status === 'awaiting_letter');
  const awaiting = open.find((r) => r.status === 'awaiting_customer');
  if (awaiting) {
    awaiting.needs = [...new Set([...awaiting.needs, ...needs])];
    awaiting.skus = [...new Set([...(awaiting.skus ?? []), ...skus])];
    if (exits && awaiting.purpose === 'fix') Object.assign(awaiting, exits);
    await store.provisionRequests.update(awaiting);
    return awaiting;
  }
  if (withLetter && needs.every((need) => need === 'survey')) return withLetter;
  const id = context.ids.uuid();
  // A token without exits of its own (issued before they were kept) sends the customer back to the page itself.
  const page = `${context.origin}/checkout/setup/${id}`;
  const request: ProvisionRequest = {
    id,
    channel: context.channel,
    created_at: context.now,
    purpose,
    status: 'awaiting_customer',
    customer_key: token.customer_key,
    payment_token: token.token,
    needs,
    skus,
    success_url: exits?.success_url ?? token.success_url ?? page,
    failure_url: exits?.failure_url ?? token.failure_url ?? page,
    use_iframe: false,
    ...(token.customer_email !== null ? { customer_email: token.customer_email } : {}),
    ...(token.customer_name !== null ? { customer_name: token.customer_name } : {}),
    ...(token.metadata !== null ? { metadata: token.metadata } : {}),
  };
  await store.provisionRequests.insert(request);
  return request;
}

/** A deleted token's open requests end: nothing can bring the token back. */
export async function cancelTokenRequests(store: SandboxStore, channel: string, token: string): Promise<void> {
  for (const request of await store.provisionRequests.openForToken(channel, token)) {
    request.status = 'canceled';
    request.needs = [];
    await store.provisionRequests.update(request);
  }
}

/**
 * The token a provisioned setup gives: a new one, or, when the customer already has one on the
 * channel (two setups were open at once), that one with the new card, so that an email never holds two.
 */
async function tokenOfSetup(
  store: SandboxStore,
  context: WriteContext,
  request: ProvisionRequest,
  card: Card,
): Promise<string> {
  const existing = request.customer_key.startsWith('request:')
    ? undefined
    : await store.tokens.activeOf(context.channel, request.customer_key);
  if (existing) {
    await store.tokens.setCard(context.channel, existing, card);
    return existing;
  }
  const token: PaymentTokenRecord = {
    token: `ptok_${context.ids.short()}`,
    channel: context.channel,
    session_id: null,
    status: 'active',
    next_action: null,
    created_at: context.now,
    customer_email: request.customer_email ?? null,
    customer_name: request.customer_name ?? null,
    customer_key: request.customer_key,
    user_business_id: await store.customers.businessIdOf(context.channel, request.customer_key, () =>
      context.ids.uuid(),
    ),
    card_brand: card.brand,
    card_last4: card.last4,
    card_expires: card.expires,
    lmn_expires_at: null,
    provision_request_id: request.id,
    metadata: request.metadata ?? null,
    success_url: request.success_url,
    failure_url: request.failure_url,
  };
  await store.tokens.insert(token);
  return token.token;
}

/**
 * Stores what a customer's or clinician's move of a request led to: its letter, and once it is
 * provisioned, the issued or fixed token and its payment_token.updated event.
 */
export async function applyOutcome(
  store: SandboxStore,
  context: WriteContext,
  request: ProvisionRequest,
  outcome: ProvisionOutcome,
): Promise<void> {
  if (outcome.letter) {
    if (await store.letters.ofRequest(request.id)) {
      await store.letters.decide(request.id, outcome.letter.status, outcome.letter.expires_on);
    } else {
      await store.letters.add(context.channel, {
        customer_key: request.customer_key,
        provision_request_id: request.id,
        created_at: context.now,
        ...outcome.letter,
      });
    }
  }
  if (outcome.provision) {
    let token: string;
    if (request.purpose === 'setup') {
      token = await tokenOfSetup(store, context, request, outcome.provision.card ?? defaultCard(context.now));
      request.payment_token = token;
    } else {
      token = request.payment_token!;
      if (outcome.provision.card) await store.tokens.setCard(context.channel, token, outcome.provision.card);
      await store.tokens.setNextAction(context.channel, token, null);
    }
    await refreshLetterExpiry(store, context, request.customer_key);
    const updated = tokenUpdatedEvent((await store.tokens.get(context.channel, token))!, {
      provision_token_request_id: request.id,
    });
    await queueEvents(store, context, [updated]);
  } else if (outcome.letter) {
    await refreshLetterExpiry(store, context, request.customer_key);
  }
  // The customer left the page once, to the exit of that moment; a later decision does not move them.
  if (request.status !== 'awaiting_customer' && request.redirect_url === undefined) {
    request.redirect_url = endOfPage(request);
  }
  await store.provisionRequests.update(request);
}

/** The sandbox's whole record of a provision request (inspect, and the helpers' answers). */
export async function inspectRequest(store: SandboxStore, origin: string, request: ProvisionRequest) {
  const letter = await store.letters.ofRequest(request.id);
  return {
    provision_token_request_id: request.id,
    purpose: request.purpose,
    status: request.status,
    payment_token: request.status === 'provisioned' ? (request.payment_token ?? null) : null,
    needs: request.needs,
    letter: letter ? { status: letter.status, skus: letter.skus, lmn_expires_at: letter.expires_on } : null,
    redirect_url: request.redirect_url ?? provisionUrl(origin, request),
    created_at: request.created_at,
  };
}

/** The skus of these items that the channel's catalog says need a letter of medical necessity. */
export async function lmnSkusOf(
  store: SandboxStore,
  channel: string,
  items: ReadonlyArray<{ sku?: string }>,
): Promise<string[]> {
  const skus = [...new Set(items.flatMap((item) => (item.sku !== undefined ? [item.sku] : [])))];
  if (skus.length === 0) return [];
  const eligibility = await store.catalog.eligibilityOf(channel, skus);
  return skus.filter((sku) => eligibility.get(sku) === 'eligible_with_lmn');
}

/**
 * The checkout of a tokenize=true session completed: its token becomes usable with the card the
 * customer entered, the survey's letter covers the session's items that need one, and
 * payment_token.updated is queued.
 */
export async function activateIssuedToken(
  store: SandboxStore,
  context: WriteContext,
  session: Session,
  card: Card,
): Promise<void> {
  const tokenId = session.issued_payment_token!;
  const token = (await store.tokens.get(context.channel, tokenId))!;
  await store.tokens.setStatus(context.channel, tokenId, 'active');
  await store.tokens.setCard(context.channel, tokenId, card);
  const lmnSkus = await lmnSkusOf(store, context.channel, session.items);
  if (lmnSkus.length > 0) {
    await store.letters.add(context.channel, {
      customer_key: token.customer_key,
      provision_request_id: null,
      status: 'approved',
      skus: lmnSkus,
      expires_on: aYearOn(context.now),
      created_at: context.now,
    });
  }
  await refreshLetterExpiry(store, context, token.customer_key);
  const updated = tokenUpdatedEvent((await store.tokens.get(context.channel, tokenId))!, {
    payment_session_id: session.id,
  });
  await queueEvents(store, context, [updated]);
}

/** The token a tokenize=true session issues: not usable until its checkout completes. */
export function pendingSessionToken(session: Session, token: string): PaymentTokenRecord {
  return {
    token,
    channel: session.channel,
    session_id: session.id,
    status: 'pending_checkout',
    next_action: null,
    created_at: session.created_at,
    customer_email: session.customer_email ?? null,
    customer_name: session.customer_name ?? null,
    customer_key: customerKeyOf(session.customer_email, `session:${session.id}`),
    // The session's customer is the token's user: the same key, so the same business id.
    user_business_id: session.user_business_id ?? null,
    card_brand: null,
    card_last4: null,
    card_expires: null,
    lmn_expires_at: null,
    provision_request_id: null,
    metadata: session.request.metadata ?? null,
    success_url: resolveRedirect(session.request.success_url, session.id),
    failure_url: resolveRedirect(session.request.failure_url, session.id),
  };
}
