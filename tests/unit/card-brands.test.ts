// The cards a simulated customer enters: the brand read from the number's leading digits, the expiry
// month kept as YYYY-MM, and the test card a helper enters when given none.
import { describe, expect, it } from 'vitest';
import { acceptCard, defaultCard } from '../../src/sandbox/domain/cards.js';

const NOW = '2026-05-10T12:00:00.000Z';

/** The number the digits make once the Luhn check digit is appended. */
function withCheckDigit(digits: string): string {
  for (let check = 0; check <= 9; check++) {
    const number = `${digits}${check}`;
    let sum = 0;
    for (let i = 0; i < number.length; i++) {
      const digit = Number(number[number.length - 1 - i]);
      sum += i % 2 === 1 ? (digit * 2 > 9 ? digit * 2 - 9 : digit * 2) : digit;
    }
    if (sum % 10 === 0) return number;
  }
  throw new Error('unreachable');
}

const brandOf = (digits: string) =>
  acceptCard({ number: withCheckDigit(digits), exp_month: 12, exp_year: 2030 }, NOW).brand;

describe('card brands', () => {
  it('reads the brand from the leading digits only', () => {
    expect({
      visa: brandOf('424242424242424'),
      mastercard51: brandOf('510510510510510'),
      mastercard22: brandOf('222100000000000'),
      mastercard27: brandOf('272000000000000'),
      amex34: brandOf('34000000000000'),
      amex37: brandOf('37828224631000'),
      discover: brandOf('601111111111111'),
    }).toEqual({
      visa: 'visa',
      mastercard51: 'mastercard',
      mastercard22: 'mastercard',
      mastercard27: 'mastercard',
      amex34: 'amex',
      amex37: 'amex',
      discover: 'discover',
    });
  });

  it('does not take digits further into the number for a brand', () => {
    expect({
      fiveOne: brandOf('605100000000000'),
      twoTwo: brandOf('602200000000000'),
      threeFour: brandOf('603400000000000'),
      six: brandOf('900600000000000'),
    }).toEqual({ fiveOne: 'discover', twoTwo: 'discover', threeFour: 'discover', six: 'card' });
  });

  it('calls a number of no known brand a card', () => {
    expect([
      brandOf('900000000000000'),
      brandOf('210000000000000'),
      brandOf('350000000000000'),
      brandOf('500000000000000'),
    ]).toEqual(['card', 'card', 'card', 'card']);
  });

  it('keeps the expiry month as YYYY-MM, a one-digit month with its leading zero', () => {
    expect(acceptCard({ number: '4242424242424242', exp_month: 3, exp_year: 2030 }, NOW)).toEqual({
      brand: 'visa',
      last4: '4242',
      expires: '2030-03',
    });
  });

  it('writes the expiry year with four digits', () => {
    expect(() => acceptCard({ number: '4242424242424242', exp_month: 12, exp_year: 999 }, NOW)).toThrow(
      'card expired at the end of 0999-12; the sandbox clock is at 2026-05.',
    );
  });

  it('enters a Visa ending 4242 when given no card', () => {
    expect(defaultCard(NOW)).toEqual({ brand: 'visa', last4: '4242', expires: '2029-12' });
  });
});
