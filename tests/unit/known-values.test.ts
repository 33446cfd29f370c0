// KnownValues and isKnownValue (src/client/known-values.ts): the documented values of an open enum,
// as types and at run time.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { isKnownValue, type components, type KnownValues } from '../../src/client/index.js';

type Summary = components['schemas']['PaymentSessionStatusSummary'];
const SUMMARIES = [
  'Incomplete',
  'Authorized',
  'Captured',
  'Partially Captured',
  'Refunded',
  'Partially Refunded',
  'Disputed',
  'Voided',
  'Expired',
] as const;

describe('KnownValues', () => {
  it('keeps the documented values of an open enum, and drops its any-other-string', () => {
    expectTypeOf<KnownValues<Summary>>().toEqualTypeOf<(typeof SUMMARIES)[number]>();
    expectTypeOf<KnownValues<'a' | 'b' | (string & {})>>().toEqualTypeOf<'a' | 'b'>();
  });

  it('gives nothing of a plain string, and keeps a closed enum whole', () => {
    expectTypeOf<KnownValues<string>>().toBeNever();
    expectTypeOf<KnownValues<components['schemas']['RefundReasonInput']>>().toEqualTypeOf<
      'customer_request' | 'fraudulent' | 'duplicate_payment'
    >();
  });

  it('an open enum still takes a value the contract does not list', () => {
    const later: Summary = 'Added Later';
    expect(later).toBe('Added Later');
  });
});

describe('isKnownValue', () => {
  it('is true for a documented value, and narrows it', () => {
    const value: Summary = 'Captured' as Summary;
    expect(isKnownValue(SUMMARIES, value)).toBe(true);
    if (isKnownValue(SUMMARIES, value)) expectTypeOf(value).toEqualTypeOf<(typeof SUMMARIES)[number]>();
  });

  it.each(['Added Later', 'captured', '', ' Captured'])('is false for %j, which the list does not hold', (value) => {
    expect(isKnownValue(SUMMARIES, value)).toBe(false);
  });

  it('is false for null, undefined and what is no string', () => {
    expect(isKnownValue(SUMMARIES, null)).toBe(false);
    expect(isKnownValue(SUMMARIES, undefined)).toBe(false);
    expect(isKnownValue(['1'], 1 as unknown as string)).toBe(false);
  });
});
