// The range of times the sandbox stores. Times are kept as ISO 8601 text (`Date#toISOString`) and
// compared as text, which orders as time does only for years 0000 to 9999.

/** The last time the sandbox can store, as stored. */
export const LAST_STORED_TIME_TEXT = '9999-12-31T23:59:59.999Z';
/** The last time the sandbox can store, in ms since the epoch: its clock stops here. */
export const LAST_STORED_TIME = Date.parse(LAST_STORED_TIME_TEXT);
/** The first time the sandbox can store, in ms since the epoch. */
export const FIRST_STORED_TIME = Date.parse('0000-01-01T00:00:00.000Z');
/** The last day the sandbox can store (a letter's expiry). */
export const LAST_STORED_DAY = LAST_STORED_TIME_TEXT.slice(0, 10);
