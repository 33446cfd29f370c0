// The bounds of the kept answers (store/answer-cache.ts): memory, whatever the queries. Each
// channel's answers take at most its budget in bytes, and all channels' at most the total, the
// oldest dropped first (the oldest of any channel for the total); an answer larger than a budget is
// answered and not kept; a key of up to 1,000 characters is kept, a longer one computed each time.
import { describe, expect, it } from 'vitest';
import {
  ANSWER_CACHE_BOUNDS,
  answerCache,
  ENTRY_BYTES,
  keptBytes,
  type AnswerCacheBounds,
} from '../../src/sandbox/store/answer-cache.js';
import { factCache } from '../../src/sandbox/store/fact-cache.js';
import { openDatabase } from '../../src/sandbox/store/index.js';

/** A cache with these bounds, and how often each key was computed. */
function cache(bounds?: AnswerCacheBounds) {
  const facts = factCache(openDatabase(':memory:'));
  const answers = answerCache(facts, bounds);
  const computed: string[] = [];
  const answer = (channel: string, key: string, text = `answer to ${key}`) =>
    answers.answer(channel, key, () => {
      computed.push(key);
      return text;
    });
  return { facts, answers, answer, computed };
}

/** A text that, kept under `key`, is counted at exactly `bytes`. */
const sized = (key: string, bytes: number) => 'x'.repeat((bytes - ENTRY_BYTES) / 2 - 2 * key.length);
const kept = (answers: ReturnType<typeof cache>['answers'], channel: string, keys: string[]) =>
  keys.filter((key) => answers.get(channel, key) !== undefined);

describe('kept answers, counted in bytes', () => {
  it("count 2 bytes per character of the text and of the key, kept twice, and the entries' own bytes", () => {
    const { answers, answer } = cache();
    expect(keptBytes('ab', 'xyz')).toBe(2 * (4 + 3) + ENTRY_BYTES);
    expect(ENTRY_BYTES).toBe(128);
    answer('dev', 'ab', 'xyz');
    expect(answers.bytes('dev')).toBe(142);
    answer('other', 'c', '');
    expect([answers.bytes('other'), answers.bytes(), answers.bytes('nobody')]).toEqual([132, 274, 0]);
  });

  it('are bounded by default at 16 MiB a channel and 64 MiB in all', () => {
    expect(ANSWER_CACHE_BOUNDS).toEqual({ perChannelBytes: 16 * 1024 * 1024, totalBytes: 64 * 1024 * 1024 });
    const { answers, answer } = cache();
    const big = sized('a', 8 * 1024 * 1024);
    for (const key of ['a', 'b', 'c']) answer('dev', key, big);
    expect(kept(answers, 'dev', ['a', 'b', 'c'])).toEqual(['b', 'c']);
    expect(answers.bytes('dev')).toBe(16 * 1024 * 1024);
    expect(answers.get('dev', 'missing')).toBeUndefined();
  });
});

describe('kept answers, per channel', () => {
  it('keep each key of a channel apart, each computed once', () => {
    const { answer, computed } = cache();
    for (let round = 0; round < 2; round++) {
      expect(['a', 'b', 'c'].map((key) => answer('dev', key))).toEqual(['answer to a', 'answer to b', 'answer to c']);
    }
    expect(computed).toEqual(['a', 'b', 'c']);
  });

  it("keep an answer that fills the channel's budget exactly, and answer a larger one without keeping it", () => {
    const { answers, answer, computed } = cache({ perChannelBytes: 1_000, totalBytes: 5_000 });
    answer('dev', 'fits', sized('fits', 1_000));
    expect(answers.bytes('dev')).toBe(1_000);
    const tooLarge = sized('big', 1_002);
    for (let round = 0; round < 2; round++) expect(answer('dev', 'big', tooLarge)).toBe(tooLarge);
    expect(computed).toEqual(['fits', 'big', 'big']);
    // The larger one dropped nothing to make room it could never have.
    expect(kept(answers, 'dev', ['fits', 'big'])).toEqual(['fits']);
  });

  it('keep no answer larger than the total budget either, when it is the smaller', () => {
    const { answers, answer } = cache({ perChannelBytes: 5_000, totalBytes: 1_000 });
    answer('dev', 'fits', sized('fits', 1_000));
    answer('dev', 'big', sized('big', 1_002));
    expect(kept(answers, 'dev', ['fits', 'big'])).toEqual(['fits']);
  });

  it('drop the oldest first, as many as the new answer needs, and keep the rest of the channel', () => {
    const { answers, answer } = cache({ perChannelBytes: 1_000, totalBytes: 5_000 });
    for (const key of ['a', 'b', 'c', 'd']) answer('dev', key, sized(key, 250));
    expect(answers.bytes('dev')).toBe(1_000);
    answer('dev', 'e', sized('e', 250));
    expect(kept(answers, 'dev', ['a', 'b', 'c', 'd', 'e'])).toEqual(['b', 'c', 'd', 'e']);
    answer('dev', 'f', sized('f', 500));
    expect(kept(answers, 'dev', ['b', 'c', 'd', 'e', 'f'])).toEqual(['d', 'e', 'f']);
    expect(answers.bytes('dev')).toBe(1_000);
  });

  it('count a key kept again once: its new answer replaces the old', () => {
    const { answers } = cache({ perChannelBytes: 1_000, totalBytes: 5_000 });
    answers.set('dev', 'a', sized('a', 400));
    answers.set('dev', 'b', sized('b', 400));
    // Counted twice, b would push a out to make room.
    answers.set('dev', 'b', sized('b', 600));
    expect(answers.bytes('dev')).toBe(1_000);
    expect(kept(answers, 'dev', ['a', 'b'])).toEqual(['a', 'b']);
    expect(answers.get('dev', 'b')).toBe(sized('b', 600));
    // Kept again, it is the newest: the next answer pushes a out first.
    answers.set('dev', 'c', sized('c', 400));
    expect(kept(answers, 'dev', ['a', 'b', 'c'])).toEqual(['b', 'c']);
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

  it('keep nothing of an answer that throws', () => {
    const { answers, answer } = cache();
    expect(() =>
      answers.answer('dev', 'a', () => {
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(answers.get('dev', 'a')).toBeUndefined();
    expect(answers.bytes()).toBe(0);
    expect(answer('dev', 'a')).toBe('answer to a');
  });
});

describe('kept answers, across channels', () => {
  it('drop the oldest answer of any channel once all channels together would pass the total', () => {
    const { answers, answer } = cache({ perChannelBytes: 1_000, totalBytes: 1_000 });
    answer('dev', 'a1', sized('a1', 300));
    answer('other', 'b1', sized('b1', 300));
    answer('dev', 'a2', sized('a2', 300));
    answer('other', 'b2', sized('b2', 300));
    expect([kept(answers, 'dev', ['a1', 'a2']), kept(answers, 'other', ['b1', 'b2'])]).toEqual([['a2'], ['b1', 'b2']]);
    answer('other', 'b3', sized('b3', 300));
    expect([kept(answers, 'dev', ['a2']), kept(answers, 'other', ['b1', 'b2', 'b3'])]).toEqual([['a2'], ['b2', 'b3']]);
    expect(answers.bytes()).toBe(900);
  });

  it('find the oldest in a channel listed after one whose oldest answer is newer', () => {
    const { answers, answer } = cache({ perChannelBytes: 600, totalBytes: 1_000 });
    answer('dev', 'a1', sized('a1', 300));
    answer('other', 'b1', sized('b1', 300));
    answer('dev', 'a2', sized('a2', 300));
    // dev's own bound drops a1: dev, listed first, now holds a2 and a3, both newer than other's b1.
    answer('dev', 'a3', sized('a3', 300));
    expect([kept(answers, 'dev', ['a1', 'a2', 'a3']), kept(answers, 'other', ['b1'])]).toEqual([['a2', 'a3'], ['b1']]);
    answer('third', 'c1', sized('c1', 300));
    expect([
      kept(answers, 'dev', ['a2', 'a3']),
      kept(answers, 'other', ['b1']),
      kept(answers, 'third', ['c1']),
    ]).toEqual([['a2', 'a3'], [], ['c1']]);
    expect([answers.bytes('other'), answers.bytes()]).toEqual([0, 900]);
  });

  it('forget a channel emptied by the total, and go on dropping the oldest of the others', () => {
    const { answers, answer } = cache({ perChannelBytes: 1_000, totalBytes: 1_000 });
    answer('dev', 'a1', sized('a1', 400));
    answer('other', 'b1', sized('b1', 400));
    answer('other', 'b2', sized('b2', 400));
    expect([kept(answers, 'dev', ['a1']), kept(answers, 'other', ['b1', 'b2']), answers.bytes('dev')]).toEqual([
      [],
      ['b1', 'b2'],
      0,
    ]);
    answer('third', 'c1', sized('c1', 400));
    expect([kept(answers, 'other', ['b1', 'b2']), kept(answers, 'third', ['c1'])]).toEqual([['b2'], ['c1']]);
    // The emptied channel keeps answers again.
    answer('dev', 'a2', sized('a2', 200));
    expect([kept(answers, 'dev', ['a2']), answers.bytes()]).toEqual([['a2'], 1_000]);
  });

  it("forget the ages of a dropped channel's answers: the total then drops the oldest of those kept", () => {
    const { answers, answer } = cache({ perChannelBytes: 1_000, totalBytes: 1_000 });
    answer('dev', 'a1', sized('a1', 400));
    answer('other', 'b1', sized('b1', 400));
    answers.dropChannel('dev');
    // A channel with nothing kept (a write where nothing was read) drops nothing.
    answers.dropChannel('third');
    answer('other', 'b2', sized('b2', 400));
    answer('dev', 'a2', sized('a2', 400));
    expect([kept(answers, 'dev', ['a1', 'a2']), kept(answers, 'other', ['b1', 'b2']), answers.bytes()]).toEqual([
      ['a2'],
      ['b2'],
      800,
    ]);
  });

  it("drop one channel's answers on its write, and every answer when the cached facts are emptied", () => {
    const { facts, answers, answer, computed } = cache();
    answer('dev', 'a');
    answer('other', 'x');
    answers.dropChannel('dev');
    expect([answers.get('dev', 'a'), answers.get('other', 'x'), answers.bytes('dev')]).toEqual([
      undefined,
      'answer to x',
      0,
    ]);
    facts.clear();
    expect([answers.get('other', 'x'), answers.bytes()]).toEqual([undefined, 0]);
    answer('other', 'x');
    expect(computed).toEqual(['a', 'x', 'x']);
    expect(answers.bytes()).toBe(keptBytes('x', 'answer to x'));
  });
});
