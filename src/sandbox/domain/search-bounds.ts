// The bounds of a list's search (the session list's `search`, the token list's `email` and `name`),
// and the refusal each one answers. The reference states none: these are the sandbox's
// (openapi/sandbox.yaml), so that one search never holds the server, whose single event loop every
// other request waits on. Each bound answers the list's declared 400, InvalidRequestParameter, with
// what was hit and what to do instead.
import { quoted, refusalsOf } from './errors.js';

/** The shortest search the trigram index answers; a shorter one reads the channel's rows one by one. */
export const TRIGRAM = 3;
/** The longest search, in characters. */
export const MAX_SEARCH_LENGTH = 256;
/**
 * The most matches a search may have. The count of the answer is exact, so every match is read;
 * past this many, the work would grow with the channel rather than with the answer.
 */
export const MAX_SEARCH_MATCHES = 5_000;
/** The most rows a search the trigram index cannot answer may read: all the channel's, one by one. */
export const MAX_SHORT_SEARCH_ROWS = 10_000;
/** The most sessions of a channel still waiting for the trigram index that a search tests one by one. */
export const MAX_UNINDEXED_SESSIONS = 10_000;

/**
 * Whether the trigram index can answer a (lower-cased) needle: 3 characters or more, and no NUL,
 * which would end the FTS5 query string early.
 */
export const trigramSearchable = (needle: string) => [...needle].length >= TRIGRAM && !needle.includes('\u0000');

/** One searched query parameter, as the caller wrote it. */
export interface SearchTerm {
  parameter: string;
  value: string;
}

/** A list that searches: the operation whose 400 it answers, the rows it reads, and what narrows a short search. */
interface SearchedList {
  operationId: 'listPaymentSessions' | 'listPaymentTokens';
  /** The rows, singular and plural: "session", "sessions". */
  row: string;
  rows: string;
  /** What a caller refused a short search should do instead. */
  shortAdvice: string;
}

function searchRefusals(list: SearchedList) {
  const refuse = (message: string) => refusalsOf(list.operationId)('InvalidRequestParameter', message);
  return {
    tooLong: (parameter: string) =>
      refuse(`${parameter} must be at most ${MAX_SEARCH_LENGTH} characters in the sandbox.`),

    /** The terms together match more than MAX_SEARCH_MATCHES rows. */
    tooBroad: (terms: readonly SearchTerm[]) =>
      refuse(
        `${terms.map((t) => `${t.parameter} ${quoted(t.value)}`).join(' and ')} ` +
          `${terms.length > 1 ? 'match' : 'matches'} more than ${MAX_SEARCH_MATCHES} ${list.rows}, the most the ` +
          `sandbox counts for one search: search for something longer or more specific.`,
      ),

    /**
     * A search the trigram index cannot answer (too short, or holding a NUL) in a channel too large to read one by
     * one.
     */
    tooShort: ({ parameter, value }: SearchTerm) => {
      const why = value.includes('\u0000') ? 'holds a NUL character' : `is shorter than ${TRIGRAM} characters`;
      return refuse(
        `${parameter} ${quoted(value)} ${why}, so it reads every ${list.row} of the channel one by one, and the ` +
          `sandbox does so for at most ${MAX_SHORT_SEARCH_ROWS} ${list.rows}: ${list.shortAdvice}.`,
      );
    },
  };
}

/** The session list's `search`. */
export const sessionSearchRefusals = searchRefusals({
  operationId: 'listPaymentSessions',
  row: 'session',
  rows: 'sessions',
  shortAdvice: `search for ${TRIGRAM} characters or more, or filter by status or kind first`,
});

/** The token list's `email` and `name`. */
export const tokenSearchRefusals = searchRefusals({
  operationId: 'listPaymentTokens',
  row: 'token',
  rows: 'tokens',
  shortAdvice: `give email or name ${TRIGRAM} characters or more`,
});

/** Sessions join the index in batches (store/search-index.ts), and a search tests those still queued one by one. */
export const searchIndexBehind = () =>
  refusalsOf('listPaymentSessions')(
    'InvalidRequestParameter',
    `search cannot run now: more than ${MAX_UNINDEXED_SESSIONS} sessions of this channel are still waiting for ` +
      `the search index, which takes them in within seconds: retry shortly.`,
  );
