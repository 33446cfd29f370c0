// The bounds of the kept answers (store/answer-cache.ts): every query of a channel is kept apart,
// up to the bound per channel, the oldest dropped first; a key of up to 1,000 characters is kept,
// and a longer one is answered but computed each time.
import { describe, expect, it } from 'vitest';
import { answerCache } from '../../src/sandbox/store/answer-cache.js';
import { factCache } from '../../src/sandbox/store/fact-cache.js';
import { openDatabase } from '../../src/sandbox/store/index.js';

/** A cache of at most `max` answers per channel, and how often each key was computed. */
function cache(max?: number) {
  const answers = answerCache(factCache(openDatabase(':memory:')), max);
  const computed: string[] = [];
  const answer = (channel: string, key: string) => answers.answer(channel, key, () => {
    computed.push(key);
    return `answer to ${key}`;
  });
  return { answers, answer, computed };
}

describe('kept answers, per channel', () => {
  it('keep each key of a channel apart, each computed once', () => {
    const { answer, computed } = cache();
    for (let round = 0; round < 2; round++) {
      expect(['a', 'b', 'c'].map((key) => answer('dev', key))).toEqual(['answer to a', 'answer to b', 'answer to c']);
    }
    expect(computed).toEqual(['a', 'b', 'c']);
  });

  it('keep at most the bound per channel, dropping the oldest first, and another channel\'s apart', () => {
    const { answers, answer, computed } = cache(2);
    answer('dev', 'a');
    answer('dev', 'b');
    answer('other', 'x');
    expect([answers.get('dev', 'a'), answers.get('dev', 'b'), answers.get('other', 'x')]).toEqual(['answer to a', 'answer to b', 'answer to x']);
    answer('dev', 'c');
    expect([answers.get('dev', 'a'), answers.get('dev', 'b'), answers.get('dev', 'c')]).toEqual([undefined, 'answer to b', 'answer to c']);
    expect(answers.get('other', 'x')).toBe('answer to x');
    answer('dev', 'a');
    expect(computed).toEqual(['a', 'b', 'x', 'c', 'a']);
  });

  it('keep a key of 1,000 characters, and compute a longer one each time', () => {
    const { answers, answer, computed } = cache();
    const [longest, tooLong] = ['k'.repeat(1_000), 'k'.repeat(1_001)];
    for (let round = 0; round < 2; round++) {
      expect(answer('dev', longest)).toBe(`answer to ${longest}`);
      expect(answer('dev', tooLong)).toBe(`answer to ${tooLong}`);
    }
    expect(computed).toEqual([longest, tooLong, tooLong]);
    expect(answers.get('dev', longest)).toBe(`answer to ${longest}`);
    expect(answers.get('dev', tooLong)).toBeUndefined();
  });
});
