// How the PostgreSQL store's texts reach the server, without a server: a NUL crosses escaped and
// comes back as it was written (store/postgres/nul.ts), and a URL's sslmode is handed to the driver
// as the driver applies it (store/postgres/ssl-mode.ts).
import { describe, expect, it } from 'vitest';
import { escapeNul, escapeParameter, holdsNul, unescapeNul } from '../../src/sandbox/store/postgres/nul.js';
import { driverConnectionString } from '../../src/sandbox/store/postgres/ssl-mode.js';

const ESCAPE = '\uffff';
const ESCAPED_NUL = '\ufffe';

describe('a NUL crosses to the server escaped, one to one', () => {
  it('escapes a NUL as U+FFFF U+FFFE, and U+FFFF itself as U+FFFF U+FFFF', () => {
    expect(escapeNul('a\u0000b')).toBe(`a${ESCAPE}${ESCAPED_NUL}b`);
    expect(escapeNul(`a${ESCAPE}b`)).toBe(`a${ESCAPE}${ESCAPE}b`);
    expect(escapeNul(`\u0000${ESCAPE}\u0000`)).toBe(`${ESCAPE}${ESCAPED_NUL}${ESCAPE}${ESCAPE}${ESCAPE}${ESCAPED_NUL}`);
  });

  it('leaves a text without either unchanged, U+FFFE alone included', () => {
    expect(escapeNul('plain')).toBe('plain');
    expect(escapeNul(`a${ESCAPED_NUL}b`)).toBe(`a${ESCAPED_NUL}b`);
  });

  it('reads each escape back as what it stands for', () => {
    expect(unescapeNul(`a${ESCAPE}${ESCAPED_NUL}b`)).toBe('a\u0000b');
    expect(unescapeNul(`a${ESCAPE}${ESCAPE}b`)).toBe(`a${ESCAPE}b`);
    expect(unescapeNul('plain')).toBe('plain');
  });

  it.each([
    ['a NUL', 'a\u0000b'],
    ['U+FFFF', `x${ESCAPE}y`],
    ['U+FFFF before U+FFFE', `${ESCAPE}${ESCAPED_NUL}`],
    ['both, and two in a row', `\u0000\u0000${ESCAPE}${ESCAPE}\u0000`],
  ])('a text with %s comes back as it was written', (_case, text) => {
    expect(escapeNul(text)).not.toContain('\u0000');
    expect(unescapeNul(escapeNul(text))).toBe(text);
  });

  it('escapes each text of a parameter, in arrays too, and leaves other values as they are', () => {
    expect(escapeParameter(['a\u0000', 'b'])).toEqual([`a${ESCAPE}${ESCAPED_NUL}`, 'b']);
    expect(escapeParameter(7)).toBe(7);
    expect(escapeParameter(null)).toBe(null);
  });
});

describe('holdsNul', () => {
  it('is true when any one of the values holds a NUL', () => {
    expect(holdsNul('a\u0000b')).toBe(true);
    expect(holdsNul('plain', 'a\u0000')).toBe(true);
    expect(holdsNul(undefined, null, '\u0000')).toBe(true);
  });

  it('is false when none does', () => {
    expect(holdsNul('plain', null, undefined)).toBe(false);
    expect(holdsNul()).toBe(false);
  });
});

describe('the sslmode handed to the driver', () => {
  it.each(['prefer', 'require', 'verify-ca'])(
    'sslmode=%s, which the driver reads as verify-full, says verify-full',
    (mode) => {
      expect(driverConnectionString(`postgres://u:p@db.example:5432/app?sslmode=${mode}&application_name=x`)).toBe(
        'postgres://u:p@db.example:5432/app?sslmode=verify-full&application_name=x',
      );
    },
  );

  it.each([
    ['no sslmode', 'postgres://u:p@db.example/app'],
    ['sslmode=disable', 'postgres://u:p@db.example/app?sslmode=disable'],
    ['sslmode=verify-full', 'postgres://u:p@db.example/app?sslmode=verify-full'],
    ["libpq's meaning asked for", 'postgres://u:p@db.example/app?sslmode=require&uselibpqcompat=true'],
    ['not a URL', 'host=db.example sslmode=require'],
  ])('%s: the URL as written', (_case, url) => {
    expect(driverConnectionString(url)).toBe(url);
  });
});
