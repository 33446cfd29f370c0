// The bound on one answer of a list (domain/answer-bounds.ts): the whole answer, envelope and
// commas included, in bytes of UTF-8, at most the bound; past it the list's refusal, thrown as soon
// as an item passes it (no later item is rendered), or before any when the stored lengths tell.
import { describe, expect, it } from 'vitest';
import {
  answerTooLarge,
  boundedAnswer,
  MAX_ANSWER_BYTES,
  rendered,
  utf8Bytes,
} from '../../src/sandbox/domain/answer-bounds.js';

class TooLarge extends Error {}
const tooLarge = () => new TooLarge('too large');

/** The items, counting how many were asked for. */
function counted(items: string[]) {
  const seen = { pulled: 0 };
  return {
    seen,
    *items() {
      for (const item of items) {
        seen.pulled++;
        yield item;
      }
    },
  };
}

describe('one answer of a list', () => {
  it('is at most 1 MiB of JSON, and the refusal says so and what to ask instead', () => {
    expect(MAX_ANSWER_BYTES).toBe(1_048_576);
    expect(answerTooLarge('ask for less')).toBe(
      'The page would answer more than 1048576 bytes (1 MiB) of JSON, the most the sandbox sends in one answer: ask for less.',
    );
  });

  it('joins the items between its envelope, with nothing asked of an empty page', () => {
    expect(boundedAnswer({ prefix: '{"a":', items: ['1', '{"b":2}', '"c"'], suffix: ',"n":3}', tooLarge })).toBe(
      '{"a":[1,{"b":2},"c"],"n":3}',
    );
    expect(boundedAnswer({ prefix: '{"a":', items: [], suffix: '}', tooLarge })).toBe('{"a":[]}');
  });

  it('is served when it is exactly the bound, envelope and commas counted, and refused one byte past it', () => {
    const answer = boundedAnswer({ prefix: '{"a":', items: ['11', '22'], suffix: '}', tooLarge, bound: 14 });
    expect([answer, utf8Bytes(answer)]).toEqual(['{"a":[11,22]}', 13]);
    expect(boundedAnswer({ prefix: '{"a":', items: ['111', '22'], suffix: '}', tooLarge, bound: 14 })).toBe(
      '{"a":[111,22]}',
    );
    expect(() => boundedAnswer({ prefix: '{"a":', items: ['111', '222'], suffix: '}', tooLarge, bound: 14 })).toThrow(
      TooLarge,
    );
    // The envelope alone counts, with no item and nothing known.
    expect(() => boundedAnswer({ prefix: '{"aaaa":', items: [], suffix: '}', tooLarge, bound: 10 })).toThrow(TooLarge);
    expect(boundedAnswer({ prefix: '{"aaa":', items: [], suffix: '}', tooLarge, bound: 10 })).toBe('{"aaa":[]}');
    // The first item is counted without a comma.
    expect(boundedAnswer({ prefix: '', items: ['1234'], suffix: '', tooLarge, bound: 6 })).toBe('[1234]');
  });

  it('counts bytes of UTF-8, not characters', () => {
    expect(utf8Bytes('é€😀')).toBe(2 + 3 + 4);
    expect(boundedAnswer({ prefix: '', items: ['"é€"'], suffix: '', tooLarge, bound: 9 })).toBe('["é€"]');
    expect(() => boundedAnswer({ prefix: 'é', items: ['"é€"'], suffix: '', tooLarge, bound: 10 })).toThrow(TooLarge);
  });

  it('asks for no item past the one that passes the bound', () => {
    const { seen, items } = counted(['aaaa', 'bbbb', 'cccc', 'dddd']);
    expect(() => boundedAnswer({ prefix: '', items: items(), suffix: '', tooLarge, bound: 11 })).toThrow(TooLarge);
    expect(seen.pulled).toBe(3);
  });

  it('refuses before asking for any item when the stored lengths already pass the bound', () => {
    const past = counted(['1']);
    expect(() =>
      boundedAnswer({ prefix: '{"a":', items: past.items(), suffix: '}', knownBytes: 9, tooLarge, bound: 16 }),
    ).toThrow(TooLarge);
    expect(past.seen.pulled).toBe(0);
    const at = counted(['1']);
    expect(boundedAnswer({ prefix: '{"a":', items: at.items(), suffix: '}', knownBytes: 8, tooLarge, bound: 16 })).toBe(
      '{"a":[1]}',
    );
    expect(at.seen.pulled).toBe(1);
  });

  it('renders each item only when it is asked for', () => {
    const views: number[] = [];
    const items = rendered([1, 2, 3], (n) => {
      views.push(n);
      return { n };
    });
    expect(views).toEqual([]);
    expect(items.next().value).toBe('{"n":1}');
    expect(views).toEqual([1]);
    expect([...items]).toEqual(['{"n":2}', '{"n":3}']);
  });
});
