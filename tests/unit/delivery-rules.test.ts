// The pure rules of webhook delivery: what the delivery log keeps of a receiver's answer.
import { describe, expect, it } from 'vitest';
import { EXCERPT_CHARACTERS, excerptCollector, MOST_BODY_BYTES_READ } from '../../src/sandbox/domain/response-excerpt.js';

describe('excerptCollector', () => {
  const collect = (chunks: Array<string | Uint8Array>, ended = true) => {
    const collector = excerptCollector();
    for (const chunk of chunks) collector.add(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    return collector.result(ended);
  };

  it('keeps a short body whole, with its length in bytes', () => {
    expect(collect([])).toEqual({ text: '', truncated: false, body_bytes: 0 });
    expect(collect(['Internal ', 'Server Error'])).toEqual({ text: 'Internal Server Error', truncated: false, body_bytes: 21 });
    expect(collect(['x'.repeat(EXCERPT_CHARACTERS)])).toEqual({ text: 'x'.repeat(EXCERPT_CHARACTERS), truncated: false, body_bytes: EXCERPT_CHARACTERS });
  });

  it('keeps the first 200 characters of a longer body, labelled truncated, with the whole length', () => {
    expect(collect(['x'.repeat(EXCERPT_CHARACTERS + 1)])).toEqual({ text: 'x'.repeat(EXCERPT_CHARACTERS), truncated: true, body_bytes: EXCERPT_CHARACTERS + 1 });
    expect(collect(['a'.repeat(150), 'b'.repeat(150), 'c'.repeat(5000)])).toEqual({ text: 'a'.repeat(150) + 'b'.repeat(50), truncated: true, body_bytes: 5300 });
  });

  it('counts characters, not bytes or UTF-16 units, and decodes a character split across chunks', () => {
    const euro = Buffer.from('€'); // 3 bytes
    expect(collect([euro.subarray(0, 1), euro.subarray(1)])).toEqual({ text: '€', truncated: false, body_bytes: 3 });
    expect(collect(['😀'.repeat(250)])).toEqual({ text: '😀'.repeat(200), truncated: true, body_bytes: 1000 });
    expect(collect([new Uint8Array([0xff, 0x41])])).toEqual({ text: '\uFFFDA', truncated: false, body_bytes: 2 });
  });

  it('stops counting past 1 MiB, and a body not read to its end has no length', () => {
    const collector = excerptCollector();
    expect(collector.add(new Uint8Array(MOST_BODY_BYTES_READ))).toBe(true);
    expect(collector.add(new Uint8Array(1))).toBe(false);
    expect(collector.result(false)).toMatchObject({ truncated: true, body_bytes: null });
    expect(collect(['OK'], false)).toEqual({ text: 'OK', truncated: true, body_bytes: null });
  });
});
