// The customer's form on a hosted page (the survey and the card), read and checked: each problem is
// an error next to its field, never a thrown error.
import { cardExpired, passesLuhn, type Card } from '../domain/cards.js';
import { cardOutcome, type CardOutcome } from '../domain/test-cards.js';
import { US_STATES } from './us-states.js';

export type FormValues = Record<string, string>;

export interface CheckedForm {
  errors: Record<string, string>;
  eligible: boolean;
  card?: Card & { outcome: CardOutcome };
}

/** Reads the survey (state, eligibility) and, for an eligible customer, the card. */
export function checkCustomerForm(values: FormValues, now: string, needsCard: boolean): CheckedForm {
  const errors: Record<string, string> = {};
  if (!Object.hasOwn(US_STATES, values.state ?? '')) errors.state = 'Choose your state of residence.';
  if (values.eligibility !== 'eligible' && values.eligibility !== 'ineligible')
    errors.eligibility = 'Answer the health question.';
  const eligible = values.eligibility !== 'ineligible';
  if (values.eligibility === 'ineligible' || !needsCard) return { errors, eligible };
  const number = (values.card_number ?? '').replace(/[\s-]/g, '');
  if (number === '') errors.card_number = 'Enter your HSA/FSA card number.';
  else if (!/^[0-9]{12,19}$/.test(number) || !passesLuhn(number)) errors.card_number = 'This card number is not valid.';
  const expiry = /^(0[1-9]|1[0-2])\s*\/\s*([0-9]{2})$/.exec((values.card_expiry ?? '').trim());
  if (!expiry) errors.card_expiry = 'Enter the expiry date as MM/YY.';
  if (!/^[0-9]{3,4}$/.test((values.card_cvc ?? '').trim()))
    errors.card_cvc = 'Enter the 3 or 4 digits on the back of the card.';
  if (Object.keys(errors).length > 0 || !expiry) return { errors, eligible };
  const card = {
    brand: number.startsWith('4') ? 'visa' : 'card',
    last4: number.slice(-4),
    expires: `20${expiry[2]}-${expiry[1]}`,
    outcome: cardOutcome(number),
  };
  if (cardExpired(card, now)) return { errors: { card_expiry: 'This card has expired.' }, eligible };
  if (card.outcome === 'expired')
    return { errors: { card_expiry: 'This card has expired (test card 4000 0000 0000 0069).' }, eligible };
  return { errors, eligible, card };
}
