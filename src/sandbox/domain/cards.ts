// The cards a simulated customer enters. Only the brand, the last 4 digits and the expiry month are
// kept, as a real service keeps them; a card is valid through the last day of its expiry month (UTC).
import { helperRefusal } from './errors.js';

export interface Card {
  brand: string;
  last4: string;
  /** The expiry month, YYYY-MM: text that orders as time does. */
  expires: string;
}

export interface CardInput {
  number: string;
  exp_month: number;
  exp_year: number;
}

/** The Luhn check digit test that every real card number passes. */
export function passesLuhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

const brandOf = (number: string) =>
  number.startsWith('4')
    ? 'visa'
    : /^5[1-5]|^2[2-7]/.test(number)
      ? 'mastercard'
      : /^3[47]/.test(number)
        ? 'amex'
        : /^6/.test(number)
          ? 'discover'
          : 'card';

export const monthOf = (isoTime: string) => isoTime.slice(0, 7);

/** Whether a card has expired by this time: it holds through the last day of its month. */
export const cardExpired = (card: Pick<Card, 'expires'>, now: string) => card.expires < monthOf(now);

/** A card the customer entered, or the helper's InvalidRequest that names what is wrong. */
export function acceptCard(input: CardInput, now: string): Card {
  if (!passesLuhn(input.number))
    throw helperRefusal(
      'InvalidRequest',
      'card.number fails the Luhn check; 4242424242424242 is a test card that passes it.',
    );
  const card = {
    brand: brandOf(input.number),
    last4: input.number.slice(-4),
    expires: `${String(input.exp_year).padStart(4, '0')}-${String(input.exp_month).padStart(2, '0')}`,
  };
  if (cardExpired(card, now))
    throw helperRefusal(
      'InvalidRequest',
      `card expired at the end of ${card.expires}; the sandbox clock is at ${monthOf(now)}.`,
    );
  return card;
}

/**
 * The test card a helper enters when given none: a Visa ending 4242, expiring in December three years on (9999 at
 * most).
 */
export const defaultCard = (now: string): Card => ({
  brand: 'visa',
  last4: '4242',
  expires: `${Math.min(Number(now.slice(0, 4)) + 3, 9999)}-12`,
});

/**
 * A payment method entry: the contract declares last4, exp_month and exp_year (inferred names); type and brand are the
 * sandbox's own (openapi/sandbox.yaml).
 */
export const paymentMethodOf = (card: Card) => ({
  type: 'card',
  brand: card.brand,
  last4: card.last4,
  exp_month: Number(card.expires.slice(5, 7)),
  exp_year: Number(card.expires.slice(0, 4)),
});
