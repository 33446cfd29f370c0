// Letters of medical necessity and the eligibility they give. Pure: the letters of one customer on
// one channel and the channel's catalog are passed in. A letter stands through its expiry day,
// inclusive, in UTC.
import type { components } from '../../../generated/schema.js';
import { LAST_STORED_DAY } from './stored-time.js';

export type EligibilityResponse = components['schemas']['EligibilityResponse'];
export type LetterStatus = 'pending' | 'approved' | 'rejected';

export interface Letter {
  seq: number;
  customer_key: string;
  provision_request_id: string | null;
  status: LetterStatus;
  /** The catalog items it covers (predicted while pending). */
  skus: string[];
  /** YYYY-MM-DD, the last day it stands; approved letters only. */
  expires_on: string | null;
  created_at: string;
}

/**
 * What of the channel's catalog eligibility needs: the items chargeable without a letter, and those chargeable at all.
 */
export interface CatalogFacts {
  eligible: string[];
  /** Skus the catalog has, whatever their eligibility: a pending letter's prediction is intersected with these. */
  listed: ReadonlySet<string>;
  /** Skus whose current eligibility is `eligible` or `eligible_with_lmn`: a letter covers only these. */
  chargeable: ReadonlySet<string>;
}

export const dayOf = (isoTime: string) => isoTime.slice(0, 10);

export const stands = (letter: Letter, now: string) =>
  letter.status === 'approved' && letter.expires_on !== null && letter.expires_on >= dayOf(now);

/** Today plus one year (held at 9999-12-31), the default expiry of an approved letter. */
export const aYearOn = (now: string) => {
  const year = Number(now.slice(0, 4)) + 1;
  if (year > 9999) return LAST_STORED_DAY;
  const date = new Date(now);
  date.setUTCFullYear(year);
  return dayOf(date.toISOString());
};

const union = (...lists: string[][]) => [...new Set(lists.flat())];
// ISO dates, compared as strings: Math.min and Math.max would read them as numbers.
// biome-ignore lint/complexity/useMathMinMax: strings, not numbers
const earliest = (dates: string[]) => dates.reduce((a, b) => (b < a ? b : a));
// biome-ignore lint/complexity/useMathMinMax: strings, not numbers
const latest = (dates: string[]) => dates.reduce((a, b) => (b > a ? b : a));

/**
 * A token's `lmn_expires_at`, "the earliest expiry of a verified letter": the earliest of the
 * customer's standing letters; when none stands, the day the last one lapsed; null without any.
 */
export function tokenLetterExpiry(letters: readonly Letter[], now: string): string | null {
  const standing = letters.filter((l) => stands(l, now)).map((l) => l.expires_on!);
  if (standing.length > 0) return earliest(standing);
  const approved = letters.filter((l) => l.status === 'approved' && l.expires_on !== null).map((l) => l.expires_on!);
  return approved.length > 0 ? latest(approved) : null;
}

/**
 * The reference's eligibility. Keyed on a provision request (`own`, its letter): a finished survey
 * whose letter the clinician has not decided answers `pending`, and a declined one `rejected`.
 * Otherwise the customer's letters decide: `approved` while a verified letter stands (the items of
 * every standing letter still chargeable; `lmn_expires_at` the earliest of them), else the newest
 * letter (`pending`, `rejected`, or `expired` for a lapsed approval), else `never_requested`.
 * A `pending` answer's items are the survey's prediction "intersected with the partner's catalog":
 * every predicted item the catalog has, whatever its eligibility now, so that they are empty only
 * while the survey is unfinished. `items` is empty while the survey is unfinished and nothing stands.
 */
export function eligibilityOf(
  letters: readonly Letter[],
  own: Letter | undefined,
  surveyFinished: boolean,
  catalog: CatalogFacts,
  now: string,
): EligibilityResponse {
  const chargeable = (skus: string[]) => skus.filter((sku) => catalog.chargeable.has(sku));
  const predicted = (skus: string[]) => skus.filter((sku) => catalog.listed.has(sku));
  if (own?.status === 'pending')
    return { items: predicted(own.skus), eligibility_status: 'pending', lmn_expires_at: null };
  if (own?.status === 'rejected')
    return { items: [...catalog.eligible], eligibility_status: 'rejected', lmn_expires_at: null };
  const standing = letters.filter((l) => stands(l, now));
  if (standing.length > 0) {
    return {
      items: union(catalog.eligible, chargeable(standing.flatMap((l) => l.skus))),
      eligibility_status: 'approved',
      lmn_expires_at: earliest(standing.map((l) => l.expires_on!)),
    };
  }
  const newest = letters.at(-1);
  if (!newest)
    return {
      items: surveyFinished ? [...catalog.eligible] : [],
      eligibility_status: 'never_requested',
      lmn_expires_at: null,
    };
  if (newest.status === 'pending')
    return { items: predicted(newest.skus), eligibility_status: 'pending', lmn_expires_at: null };
  if (newest.status === 'rejected')
    return { items: [...catalog.eligible], eligibility_status: 'rejected', lmn_expires_at: null };
  return { items: [...catalog.eligible], eligibility_status: 'expired', lmn_expires_at: newest.expires_on };
}

/** Items that need a letter and that no standing letter covers. */
export function uncovered(lmnSkus: readonly string[], letters: readonly Letter[], now: string): string[] {
  const covered = new Set(letters.filter((l) => stands(l, now)).flatMap((l) => l.skus));
  return lmnSkus.filter((sku) => !covered.has(sku));
}
