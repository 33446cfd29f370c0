// The excerpt of a receiver's answer kept in the delivery log: 200 characters, its length, whether it goes on.
import { describe, expect, it } from 'vitest';
import { EXCERPT_CHARACTERS, excerptCollector } from '../../src/sandbox/domain/response-excerpt.js';

const bytes = (...parts: (string | number[])[]) =>
  Uint8Array.from(parts.flatMap((part) => (typeof part === 'string' ? [...new TextEncoder().encode(part)] : part)));
const HALF_OF_EURO = [0xe2, 0x82]; // the first two bytes of "€"

describe('excerptCollector', () => {
  it('reads a body cut inside a character as ending in U+FFFD once it has ended', () => {
    const collector = excerptCollector();
    collector.add(bytes('ok', HALF_OF_EURO));
    expect(collector.result(true)).toEqual({ text: 'ok\uFFFD', truncated: false, body_bytes: 4 });
  });

  it('keeps a character cut by a body not read to its end out of the excerpt', () => {
    const collector = excerptCollector();
    collector.add(bytes('ok', HALF_OF_EURO));
    expect(collector.result(false)).toEqual({ text: 'ok', truncated: true, body_bytes: null });
  });

  it('joins a character split across chunks', () => {
    const collector = excerptCollector();
    collector.add(bytes('ok', HALF_OF_EURO));
    collector.add(bytes([0xac]));
    expect(collector.result(true)).toEqual({ text: 'ok€', truncated: false, body_bytes: 5 });
  });

  it('labels as truncated a body of exactly EXCERPT_CHARACTERS characters followed by a cut one', () => {
    const collector = excerptCollector();
    collector.add(bytes('a'.repeat(EXCERPT_CHARACTERS), HALF_OF_EURO));
    expect(collector.result(true)).toEqual({
      text: 'a'.repeat(EXCERPT_CHARACTERS),
      truncated: true,
      body_bytes: EXCERPT_CHARACTERS + 2,
    });
  });

  it('keeps a body of exactly EXCERPT_CHARACTERS characters whole', () => {
    const collector = excerptCollector();
    collector.add(bytes('a'.repeat(EXCERPT_CHARACTERS)));
    expect(collector.result(true)).toEqual({
      text: 'a'.repeat(EXCERPT_CHARACTERS),
      truncated: false,
      body_bytes: EXCERPT_CHARACTERS,
    });
  });
});
