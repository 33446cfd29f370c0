// Payment tokens: what a charge with a token needs from the customer, what an update asks of them,
// the token record as the contract shows it, and its webhook event. Pure.
import type { components } from '../../../generated/schema.js';
import { cardExpired, paymentMethodOf, type Card } from './cards.js';
import type { CustomerAction } from './errors.js';
import { uncovered, type Letter } from './letters.js';
import type { Need } from './provisioning.js';
import type { DomainEvent, PaymentTokenRecord } from './types.js';

type PaymentToken = components['schemas']['PaymentToken'];

const cardOf = (token: Pick<PaymentTokenRecord, 'card_brand' | 'card_last4' | 'card_expires'>): Card | undefined =>
  token.card_last4 !== null && token.card_expires !== null
    ? { brand: token.card_brand ?? 'card', last4: token.card_last4, expires: token.card_expires }
    : undefined;

/**
 * What the customer must do before the token can be charged for these items: a required action
 * first, then a survey for items that need a letter no standing letter covers, then a card for an
 * expired one. The first need is the 422's next_action. Otherwise the survey comes before the card,
 * as on the page of the hosted flow: the set keeps the order the needs are added in.
 */
export function chargeNeeds(
  token: PaymentTokenRecord,
  lmnSkus: readonly string[],
  letters: readonly Letter[],
  now: string,
): Need[] {
  const needs = new Set<Need>();
  if (token.next_action === 'TakeHealthSurvey') needs.add('survey');
  if (uncovered(lmnSkus, letters, now).length > 0) needs.add('survey');
  const card = cardOf(token);
  if (!card || cardExpired(card, now)) needs.add('card');
  return token.next_action === 'UpdatePaymentMethod' ? ['card', ...[...needs].filter((n) => n !== 'card')] : [...needs];
}

/** The 422 next_action of a first need. */
export const actionOf = (need: Need): CustomerAction =>
  need === 'survey' ? 'TakeHealthSurvey' : 'UpdatePaymentMethod';

/**
 * What an update asks of the customer: a card when update_card_info, a survey for uncovered items that need a letter.
 */
export function updateNeeds(
  updateCardInfo: boolean,
  lmnSkus: readonly string[],
  letters: readonly Letter[],
  now: string,
): Need[] {
  const needs: Need[] = [];
  if (uncovered(lmnSkus, letters, now).length > 0) needs.push('survey');
  if (updateCardInfo) needs.push('card');
  return needs;
}

/**
 * The update response's next_action for a first need. `HealthSurvey` is the value the reference
 * has seen; a card update's value is not documented, and the sandbox answers the 422's word for it
 * (openapi/sandbox.yaml).
 */
export const updateActionOf = (need: Need | undefined) =>
  need === undefined ? 'None' : need === 'survey' ? 'HealthSurvey' : 'UpdatePaymentMethod';

/** What retrieve and list payment tokens show of a token: nothing else is read for a list. */
export type ShownToken = Pick<
  PaymentTokenRecord,
  | 'token'
  | 'created_at'
  | 'customer_email'
  | 'customer_name'
  | 'user_business_id'
  | 'lmn_expires_at'
  | 'card_brand'
  | 'card_last4'
  | 'card_expires'
>;

/** The token as retrieve and list payment tokens show it. */
export function tokenView(token: ShownToken): PaymentToken {
  const card = cardOf(token);
  return {
    payment_token: token.token,
    created_at: token.created_at,
    ...(token.customer_email !== null ? { customer_email: token.customer_email } : {}),
    ...(token.customer_name !== null ? { customer_name: token.customer_name } : {}),
    ...(token.user_business_id != null ? { user_business_id: token.user_business_id } : {}),
    lmn_expires_at: token.lmn_expires_at,
    payment_methods: card ? [paymentMethodOf(card)] : [],
  };
}

/** payment_token.updated, with the fields public-facts lists; those without a value are left out. */
export function tokenUpdatedEvent(
  token: PaymentTokenRecord,
  links: { provision_token_request_id?: string; payment_session_id?: string },
): DomainEvent {
  return {
    event_type: 'payment_token.updated',
    data: {
      payment_token: token.token,
      ...links,
      lmn_expires_at: token.lmn_expires_at,
      ...(token.customer_email !== null ? { customer_email: token.customer_email } : {}),
      ...(token.customer_name !== null ? { customer_name: token.customer_name } : {}),
      ...(token.metadata !== null ? { metadata: token.metadata } : {}),
    },
  };
}
