// Nothing from a channel's data reaches a terminal raw: visible() (src/sandbox/cli/terminal-text.ts),
// which every line of `listen` and `trigger` passes through, shows each character a terminal acts
// on as a readable escape, and leaves every other character as it is.
import { describe, expect, it } from 'vitest';
import { MOST_LINE_CHARS, printable, shortened, visible } from '../../src/sandbox/cli/terminal-text.js';

/** Every code point from `from` to `to`, as one-character strings. */
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i));

describe('visible', () => {
  it('shows the sku of the reproduction with its escape sequences spelled out', () => {
    const sku = 'ESC-\u001b]0;TITLE\u0007\u001b[2J\u001b[31mRED\u001b[0m-1';
    expect(visible(sku)).toBe('ESC-\\x1b]0;TITLE\\x07\\x1b[2J\\x1b[31mRED\\x1b[0m-1');
  });

  it('escapes every C0 control, DEL and every C1 control as \\xNN (tab and newline too: a field is one line)', () => {
    for (const character of [...range(0x00, 0x1f), '\u007f', ...range(0x80, 0x9f)]) {
      const code = character.charCodeAt(0);
      expect(visible(`a${character}b`)).toBe(`a\\x${code.toString(16).padStart(2, '0')}b`);
    }
    expect(visible('\t\n\r')).toBe('\\x09\\x0a\\x0d');
    // The one-byte CSI of C1, which some terminals act on as ESC [.
    expect(visible('\u009b31m')).toBe('\\x9b31m');
  });

  it('escapes the bidirectional controls and the line and paragraph separators as \\uNNNN', () => {
    const controls = ['\u061c', '\u200e', '\u200f', '\u2028', '\u2029', ...range(0x202a, 0x202e)];
    controls.push(...range(0x2066, 0x2069));
    for (const character of controls) {
      expect(visible(character)).toBe(`\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
    }
    // A right-to-left override that would make "exe.txt" read as "txt.exe".
    expect(visible('report\u202etxt.exe')).toBe('report\\u202etxt.exe');
  });

  it.each([
    ['zero width space', '\u200b'],
    ['zero width non-joiner', '\u200c'],
    ['zero width joiner', '\u200d'],
    ['word joiner', '\u2060'],
    ['byte order mark', '\ufeff'],
    ['soft hyphen', '\u00ad'],
    ['a tag character', '\u{e0041}'],
  ])('shows the invisible format character %s escaped: two different ids never print the same', (_name, character) => {
    expect(visible(`wl_fa${character}ke`)).not.toContain(character);
    expect(visible(`wl_fa${character}ke`)).not.toBe(visible('wl_fake'));
  });

  it("escapes every format character (Unicode's Cf) and the whole tag block, as \\xNN, \\uNNNN or \\u{NNNNN}", () => {
    expect(visible('\u00ad')).toBe('\\xad');
    expect(visible('a\u200bb\ufeffc')).toBe('a\\u200bb\\ufeffc');
    const format = [...range(0x200b, 0x200f), ...range(0x2060, 0x2064), ...range(0x2066, 0x206f)];
    for (const character of [...format, '\u0600', '\u06dd', '\ufff9', '\ufffb']) {
      expect(visible(character)).toBe(`\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
    }
    // A tag sequence spelling "hi" after a flag, the tag block's first and last, and Cf beyond U+FFFF.
    expect(visible('x\u{e0068}\u{e0069}\u{e007f}y')).toBe('x\\u{e0068}\\u{e0069}\\u{e007f}y');
    for (const code of [0xe0000, 0xe0001, 0xe0002, 0xe001f, 0xe0020, 0xe007f, 0x110bd, 0x1d173, 0x13430]) {
      expect(visible(String.fromCodePoint(code))).toBe(`\\u{${code.toString(16)}}`);
    }
  });

  it('leaves printable text as it is: letters of any script, emoji, a backslash, the neighbours of each range', () => {
    const kept = [
      ' ',
      '~',
      '\u00a0',
      'é',
      'ÿ',
      'Ω',
      '日本',
      '\u{1f600}',
      '\\x1b',
      '\u061b',
      '\u061d',
      '\u200a',
      '\u2010',
      '\u2027',
      '\u202f',
      '\u2065',
      '\u2070',
      '\ufefe',
      '\ufff8',
      '\u00ac',
      '\u00ae',
      '\u{dffff}',
      '\u{e0080}',
      '\u{e0100}',
    ];
    for (const text of kept) expect(visible(text)).toBe(text);
    expect(visible('')).toBe('');
    const line = 'payment_session_complete  3f1c2a9e-8b7d  204  12 ms';
    expect(visible(line)).toBe(line);
  });

  it('escapes every occurrence, not only the first', () => {
    expect(visible('\u001b\u001b\u202e\u001b')).toBe('\\x1b\\x1b\\u202e\\x1b');
  });
});

describe('printable', () => {
  it('is visible(), cut to 2000 characters with an ellipsis: a huge answer is no huge line', () => {
    expect(MOST_LINE_CHARS).toBe(2000);
    expect(printable('a\u001bb')).toBe('a\\x1bb');
    expect(printable('x'.repeat(2000))).toBe('x'.repeat(2000));
    expect(printable('x'.repeat(2001))).toBe(`${'x'.repeat(2000)}…`);
    // Cut once escaped: what is printed is never longer than the bound and its ellipsis.
    expect(printable('\u001b'.repeat(1000))).toBe(`${'\\x1b'.repeat(500)}…`);
  });

  it('shortened cuts past `most` only', () => {
    expect(shortened('abc', 3)).toBe('abc');
    expect(shortened('abcd', 3)).toBe('abc…');
    expect(shortened('', 0)).toBe('');
  });
});
