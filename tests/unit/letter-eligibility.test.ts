// Letters of medical necessity called directly: when a letter stands, the default expiry of an
// approved one, the token's lmn_expires_at, and the eligibility a customer's letters give.
import { describe, expect, it } from 'vitest';
import {
  aYearOn,
  eligibilityOf,
  stands,
  tokenLetterExpiry,
  type CatalogFacts,
  type Letter,
  type LetterStatus,
} from '../../src/sandbox/domain/letters.js';

const NOW = '2026-03-01T12:00:00.000Z';
let seq = 0;
const letter = (status: LetterStatus, expires_on: string | null, skus: string[] = ['BPM-200']): Letter => ({
  seq: ++seq,
  customer_key: 'cust-1',
  provision_request_id: null,
  status,
  skus,
  expires_on,
  created_at: NOW,
});
const catalog: CatalogFacts = {
  eligible: ['TH-10'],
  listed: new Set(['TH-10', 'BPM-200', 'CPAP-1']),
  chargeable: new Set(['TH-10', 'BPM-200']),
};

describe('whether a letter stands', () => {
  it('only an approved letter stands, whatever expiry the record carries', () => {
    expect(stands(letter('approved', '2026-12-31'), NOW)).toBe(true);
    expect(stands(letter('rejected', '2026-12-31'), NOW)).toBe(false);
    expect(stands(letter('pending', '2026-12-31'), NOW)).toBe(false);
  });
});

describe('the default expiry of an approved letter', () => {
  it('is the same day a year on', () => {
    expect(aYearOn(NOW)).toBe('2027-03-01');
  });

  it('reaches 9999 when approved in 9998, and is held at 9999-12-31 beyond', () => {
    expect(aYearOn('9998-06-15T00:00:00.000Z')).toBe('9999-06-15');
    expect(aYearOn('9999-06-15T00:00:00.000Z')).toBe('9999-12-31');
  });
});

describe("a token's lmn_expires_at", () => {
  it('is the earliest expiry of the standing letters, ignoring lapsed ones', () => {
    const letters = [
      letter('approved', '2027-01-01'),
      letter('approved', '2026-12-01'),
      letter('approved', '2025-01-01'),
      letter('approved', '2027-06-01'),
    ];
    expect(tokenLetterExpiry(letters, NOW)).toBe('2026-12-01');
  });

  it('when none stands, is the day the last approval lapsed', () => {
    const letters = [
      letter('pending', null),
      letter('approved', '2025-05-01'),
      letter('approved', '2025-09-01'),
      letter('rejected', null),
      letter('approved', '2025-07-01'),
    ];
    expect(tokenLetterExpiry(letters, NOW)).toBe('2025-09-01');
  });

  it('counts only approved letters with an expiry', () => {
    expect(tokenLetterExpiry([letter('approved', null), letter('approved', '2025-09-01')], NOW)).toBe('2025-09-01');
    expect(tokenLetterExpiry([letter('approved', '2025-09-01'), letter('approved', null)], NOW)).toBe('2025-09-01');
    expect(tokenLetterExpiry([letter('rejected', '2025-12-01'), letter('approved', '2025-09-01')], NOW)).toBe(
      '2025-09-01',
    );
  });

  it('is null without any approved letter', () => {
    expect(tokenLetterExpiry([letter('pending', null), letter('rejected', null)], NOW)).toBeNull();
    expect(tokenLetterExpiry([], NOW)).toBeNull();
  });
});

describe('eligibility from the letters', () => {
  it("a pending letter's items are its prediction the catalog lists, chargeable or not", () => {
    const own = letter('pending', null, ['BPM-200', 'CPAP-1', 'NOT-LISTED']);
    expect(eligibilityOf([own], own, true, catalog, NOW)).toEqual({
      items: ['BPM-200', 'CPAP-1'],
      eligibility_status: 'pending',
      lmn_expires_at: null,
    });
    expect(eligibilityOf([own], undefined, true, catalog, NOW)).toEqual({
      items: ['BPM-200', 'CPAP-1'],
      eligibility_status: 'pending',
      lmn_expires_at: null,
    });
  });

  it('a newest rejected letter answers rejected with the items chargeable without a letter', () => {
    const letters = [letter('approved', '2025-01-01'), letter('rejected', null)];
    expect(eligibilityOf(letters, undefined, true, catalog, NOW)).toEqual({
      items: ['TH-10'],
      eligibility_status: 'rejected',
      lmn_expires_at: null,
    });
  });

  it('a newest lapsed approval answers expired with its expiry', () => {
    const letters = [letter('rejected', null), letter('approved', '2025-01-01')];
    expect(eligibilityOf(letters, undefined, true, catalog, NOW)).toEqual({
      items: ['TH-10'],
      eligibility_status: 'expired',
      lmn_expires_at: '2025-01-01',
    });
  });
});
