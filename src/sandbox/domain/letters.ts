// Letters of medical necessity and the eligibility they give. Pure: the letters of one customer on
// one channel and the channel's catalog are passed in. A letter stands through its expiry day,
// inclusive, in UTC.
import type { components } from '../../../generated/schema.js';

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

/** What of the channel's catalog eligibility needs: the items chargeable without a letter, and all skus. */
export interface CatalogFacts {
  eligible: string[];
  skus: ReadonlySet<string>;
}

export const dayOf = (isoTime: string) => isoTime.slice(0, 10);

export const stands = (letter: Letter, now: string) =>
  letter.status === 'approved' && letter.expires_on !== null && letter.expires_on >= dayOf(now);

/** The approved letter that determines coverage now: of those standing, the one that lasts longest. */
export function standingLetter(letters: readonly Letter[], now: string): Letter | undefined {
  return letters.filter((l) => stands(l, now)).sort((a, b) => (a.expires_on! < b.expires_on! ? 1 : -1))[0];
}

/** Today plus one year, the default expiry of an approved letter. */
export const aYearOn = (now: string) => {
  const date = new Date(now);
  date.setUTCFullYear(date.getUTCFullYear() + 1);
  return dayOf(date.toISOString());
};

const union = (...lists: string[][]) => [...new Set(lists.flat())];

/**
 * The reference's eligibility: `approved` while a verified letter stands; otherwise the newest letter
 * decides (`pending`, `rejected`, or `expired` for a lapsed approval); `never_requested` without any.
 * `items` is empty only while the survey is unfinished.
 */
export function eligibilityOf(letters: readonly Letter[], surveyFinished: boolean, catalog: CatalogFacts, now: string): EligibilityResponse {
  const inCatalog = (skus: string[]) => skus.filter((sku) => catalog.skus.has(sku));
  const standing = standingLetter(letters, now);
  if (standing) return { items: union(catalog.eligible, inCatalog(standing.skus)), eligibility_status: 'approved', lmn_expires_at: standing.expires_on };
  const newest = letters.at(-1);
  if (!newest) return { items: surveyFinished ? [...catalog.eligible] : [], eligibility_status: 'never_requested', lmn_expires_at: null };
  if (newest.status === 'pending') return { items: inCatalog(newest.skus), eligibility_status: 'pending', lmn_expires_at: null };
  if (newest.status === 'rejected') return { items: [...catalog.eligible], eligibility_status: 'rejected', lmn_expires_at: null };
  return { items: [...catalog.eligible], eligibility_status: 'expired', lmn_expires_at: newest.expires_on };
}

/** Items that need a letter and that no standing letter covers. */
export function uncovered(lmnSkus: readonly string[], letters: readonly Letter[], now: string): string[] {
  const covered = new Set(letters.filter((l) => stands(l, now)).flatMap((l) => l.skus));
  return lmnSkus.filter((sku) => !covered.has(sku));
}
