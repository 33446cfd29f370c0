// The sandbox's test cards, in the manner of the well-known payment test cards: the number decides
// what the service does with the payment. Any other number that passes the Luhn check is accepted.
export type CardOutcome = 'accepted' | 'declined' | 'review' | 'expired';

/** `meaning` is what a payment's checkout does with the card, `onSetup` what a token's setup page does. */
export const TEST_CARDS: ReadonlyArray<{ number: string; outcome: CardOutcome; meaning: string; onSetup: string }> = [
  {
    number: '4242424242424242',
    outcome: 'accepted',
    meaning: 'Accepted: a one-time payment is captured at once, a hold is authorized.',
    onSetup: 'Accepted: the card is saved.',
  },
  {
    number: '4000000000000002',
    outcome: 'declined',
    meaning: 'Declined: the customer may try another card.',
    onSetup: 'Declined: the customer may try another card.',
  },
  {
    number: '4000000000000259',
    outcome: 'review',
    meaning: 'Under review: the payment stays processing until the review helper accepts or rejects it.',
    onSetup: 'Accepted: the card is saved (its review applies only to charges).',
  },
  {
    number: '4000000000000069',
    outcome: 'expired',
    meaning: 'Expired card: refused at once, whatever expiry date is entered.',
    onSetup: 'Expired card: refused at once, whatever expiry date is entered.',
  },
];

export const cardOutcome = (number: string): CardOutcome =>
  TEST_CARDS.find((card) => card.number === number)?.outcome ?? 'accepted';
