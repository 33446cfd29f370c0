// The body parser's UTF-8 check (src/sandbox/http/body-parsing.ts): where a body stops being UTF-8.
import { describe, expect, it } from 'vitest';
import { firstInvalidUtf8, invalidUtf8Message } from '../../src/sandbox/http/body-parsing.js';

describe('firstInvalidUtf8', () => {
  it.each([
    ['ASCII', [0x7b, 0x7d], -1],
    ['two, three and four bytes', [...Buffer.from('é€🔑')], -1],
    ['nothing', [], -1],
    ['0xFF', [0x61, 0xff], 1],
    ['0xFE first', [0xfe, 0x61], 0],
    ['a continuation byte alone', [0x61, 0x80], 1],
    ['0xC1, an overlong lead', [0xc1, 0xbf], 0],
    ['an overlong three-byte form', [0x61, 0xe0, 0x80, 0xaf], 1],
    ['a surrogate', [0xed, 0xa0, 0x80], 0],
    ['past U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 0],
    ['0xF5', [0xf5, 0x80, 0x80, 0x80], 0],
    ['a cut sequence at the end', [0x61, 0x62, 0xe2, 0x82], 2],
    ['a bad byte after a good four-byte one', [...Buffer.from('🔑'), 0xff], 4],
  ])('%s: %j → %i', (_name, bytes, offset) => {
    expect(firstInvalidUtf8(Uint8Array.from(bytes))).toBe(offset);
  });

  it('names the byte and its offset in the refusal', () => {
    expect(invalidUtf8Message(Buffer.from([0x7b, 0x22, 0xfe]))).toContain('byte 0xfe at offset 2');
    expect(invalidUtf8Message(Buffer.from([0x0a, 0xc3]))).toContain('byte 0xc3 at offset 1');
  });
});
