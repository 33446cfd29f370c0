// The bounds of the session list's `search`, and the refusal each one answers. The reference states
// none: these are the sandbox's (openapi/sandbox.yaml), so that one search never holds the server,
// whose single event loop every other request waits on. Each bound answers the list's declared
// 400, InvalidRequestParameter, with what was hit and what to do instead.
import { quoted, refusalsOf } from './errors.js';

const refuse = refusalsOf('listPaymentSessions');

/** The shortest search the trigram index answers; a shorter one reads the channel's sessions one by one. */
export const TRIGRAM = 3;
/** The longest search, in characters. */
export const MAX_SEARCH_LENGTH = 256;
/**
 * The most matches a search may have. The count of the answer is exact, so every match is read;
 * past this many, the work would grow with the channel rather than with the answer.
 */
export const MAX_SEARCH_MATCHES = 5_000;
/** The most sessions a search shorter than TRIGRAM characters may read: all the channel's, one by one. */
export const MAX_SHORT_SEARCH_SESSIONS = 10_000;
/** The most sessions of a channel still waiting for the trigram index that a search tests one by one. */
export const MAX_UNINDEXED_SESSIONS = 10_000;

export const searchTooLong = () =>
  refuse('InvalidRequestParameter', `search must be at most ${MAX_SEARCH_LENGTH} characters in the sandbox.`);

export const searchTooBroad = (search: string) =>
  refuse('InvalidRequestParameter', `search ${quoted(search)} matches more than ${MAX_SEARCH_MATCHES} sessions, the most the sandbox counts for one search: search for something longer or more specific.`);

/** A search the trigram index cannot answer (too short, or holding a NUL) in a channel too large to read one by one. */
export const searchTooShort = (search: string) => {
  const why = search.includes('\u0000') ? 'holds a NUL character' : `is shorter than ${TRIGRAM} characters`;
  return refuse('InvalidRequestParameter', `search ${quoted(search)} ${why}, so it reads every session of the channel one by one, and the sandbox does so for at most ${MAX_SHORT_SEARCH_SESSIONS} sessions: search for ${TRIGRAM} characters or more, or filter by status or kind first.`);
};

export const searchIndexBehind = () =>
  refuse('InvalidRequestParameter', `search cannot run now: more than ${MAX_UNINDEXED_SESSIONS} sessions of this channel are still waiting for the search index, which takes them in within seconds: retry shortly.`);
