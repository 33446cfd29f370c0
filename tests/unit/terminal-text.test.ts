// Nothing from a channel's data reaches a terminal raw: visible() (src/sandbox/cli/terminal-text.ts),
// which every line of `listen` and `trigger` passes through, shows each character a terminal acts
// on as a readable escape, and leaves every other character as it is.
import { describe, expect, it } from 'vitest';
import { visible } from '../../src/sandbox/cli/terminal-text.js';

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

  it('leaves printable text as it is: letters of any script, emoji, a backslash, the neighbours of each range', () => {
    const kept = [
      ' ', '~', '\u00a0', 'é', 'ÿ', 'Ω', '日本', '\u{1f600}', '\\x1b',
      '\u061b', '\u061d', '\u200d', '\u2010', '\u2027', '\u202f', '\u2065', '\u206a',
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
