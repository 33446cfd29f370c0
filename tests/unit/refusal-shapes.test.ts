// The refusals the domain makes, and the quoting of caller input in their messages.
import { describe, expect, it } from 'vitest';
import { Refusal, customerActionNeeded, quoted } from '../../src/sandbox/domain/errors.js';
import { trigramSearchable } from '../../src/sandbox/domain/search-bounds.js';
import { tokenListFilter } from '../../src/sandbox/domain/token-listing.js';

describe('refusals', () => {
  it('names itself Refusal', () => {
    expect(new Refusal('invalid', 'InvalidRequest', 'no').name).toBe('Refusal');
  });

  it('says which customer action a payment token needs', () => {
    const refusal = customerActionNeeded('TakeHealthSurvey', 'https://example.com/survey');
    expect(refusal.message).toBe('The payment token needs customer action: TakeHealthSurvey.');
    expect(refusal.fields).toEqual({ next_action: 'TakeHealthSurvey', redirect_url: 'https://example.com/survey' });
  });

  it('quotes input of up to 100 characters whole, and cuts a longer one at 100', () => {
    expect(quoted('a'.repeat(100))).toBe(`"${'a'.repeat(100)}"`);
    expect(quoted('a'.repeat(101))).toBe(`"${'a'.repeat(100)}…"`);
  });
});

describe('search bounds', () => {
  it('answers a search of 3 characters from the trigram index', () => {
    expect(trigramSearchable('abc')).toBe(true);
    expect(trigramSearchable('ab')).toBe(false);
  });
});

describe('tokenListFilter', () => {
  it('filters on nothing the query leaves out', () => {
    expect(Object.keys(tokenListFilter({}))).toEqual([]);
  });

  it('filters on everything the query gives', () => {
    expect(
      tokenListFilter({ email: 'a@b', name: 'Jane', card_expires_before: '2027-01', lmn_expires_before: '2027-01-31' }),
    ).toEqual({ email: 'a@b', name: 'Jane', cardExpiresBefore: '2027-01', lmnExpiresBefore: '2027-01-31' });
  });
});
