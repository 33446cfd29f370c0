// PostgreSQL's text holds no NUL, where SQLite's does: the server refuses a parameter with one
// (invalid byte sequence, 22021). A partner may still send one in any string (a customer's name, an
// idempotency key, a sku), and SQLite keeps it. So every text crosses to the server escaped and
// comes back unescaped (connection.ts): a NUL travels as U+FFFF U+FFFE, and U+FFFF itself as
// U+FFFF U+FFFF, so that the escape is one-to-one and a lookup by a key with a NUL finds the row
// stored with it. Both are Unicode noncharacters, which no partner's text means to hold; a text
// without either, all but every one, crosses unchanged.

const ESCAPE = '\uffff';
const ESCAPED_NUL = '\ufffe';
// biome-ignore lint/suspicious/noControlCharactersInRegex: the NUL is what is escaped
const NEEDS_ESCAPE = /[\u0000\uffff]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the NUL is what is escaped
const ESCAPABLE = /[\u0000\uffff]/g;
const ESCAPED = /\uffff([\uffff\ufffe])/g;

/** `text` as the server stores it: without NUL. */
export const escapeNul = (text: string): string =>
  NEEDS_ESCAPE.test(text)
    ? text.replace(ESCAPABLE, (c) => (c === ESCAPE ? ESCAPE + ESCAPE : ESCAPE + ESCAPED_NUL))
    : text;

/** A text the server stored (escapeNul's) as it was written. */
export const unescapeNul = (text: string): string =>
  text.includes(ESCAPE) ? text.replace(ESCAPED, (_, c: string) => (c === ESCAPE ? ESCAPE : '\u0000')) : text;

/** A statement's parameter with each text in it escaped (arrays of texts too: `= ANY($1)`). */
export const escapeParameter = (value: unknown): unknown =>
  typeof value === 'string' ? escapeNul(value) : Array.isArray(value) ? value.map(escapeParameter) : value;

/**
 * Whether any of these keys holds a NUL: such a key names none of the rows whose keys the store
 * makes itself (ids, event types), so a lookup by it answers nothing without asking the server.
 */
export const holdsNul = (...values: ReadonlyArray<string | null | undefined>) =>
  values.some((value) => typeof value === 'string' && value.includes('\u0000'));
