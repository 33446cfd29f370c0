// The answers of reads of sessions under the PostgreSQL cache's rule (store/postgres/answer-cache.ts):
// served and kept only for a caller that reads the state the cache holds, never for a write, and
// never kept when computed across a drop or another sandbox's commit.
import { describe, expect, it } from 'vitest';
import { pgAnswerCache } from '../../src/sandbox/store/postgres/answer-cache.js';
import { twoSandboxes } from './core-support.js';

/** A computation that ends when the test says. */
function gated(text: string) {
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const compute = async () => {
    await gate;
    return text;
  };
  return { compute, open: () => open() };
}

describe('kept answers of reads of sessions', () => {
  it('are kept by reads, and dropped when a write of the channel commits', async () => {
    const [here] = await twoSandboxes('answers_kept');
    const answers = pgAnswerCache(here.facts);
    let runs = 0;
    const compute = async () => `answer ${++runs}`;
    expect(await here.read(() => answers.answer('dev', 'page', compute))).toBe('answer 1');
    expect(await here.read(() => answers.answer('dev', 'page', compute))).toBe('answer 1');
    await here.transaction(async () => answers.dropChannel('dev'));
    expect(await here.read(() => answers.answer('dev', 'page', compute))).toBe('answer 2');
  });

  it('are neither served to nor kept by a write, which computes them afresh', async () => {
    const [here] = await twoSandboxes('answers_write');
    const answers = pgAnswerCache(here.facts);
    expect(await here.read(() => answers.answer('dev', 'page', async () => 'kept'))).toBe('kept');
    expect(await here.transaction(() => answers.answer('dev', 'page', async () => 'afresh'))).toBe('afresh');
    expect(await here.transaction(() => answers.answer('dev', 'other', async () => 'not kept'))).toBe('not kept');
    expect(await here.read(() => answers.answer('dev', 'other', async () => 'computed again'))).toBe('computed again');
  });

  it('computed across a drop of the channel are answered, not kept', async () => {
    const [here] = await twoSandboxes('answers_drop');
    const answers = pgAnswerCache(here.facts);
    await here.revalidate();
    const slow = gated('before the change');
    const pending = answers.answer('dev', 'page', slow.compute);
    answers.dropChannel('dev');
    slow.open();
    expect(await pending).toBe('before the change');
    expect(await answers.answer('dev', 'page', async () => 'after the change')).toBe('after the change');
  });

  it("computed across another sandbox's commit are answered, not kept", async () => {
    const [here, there] = await twoSandboxes('answers_commit');
    const answers = pgAnswerCache(here.facts);
    await here.revalidate();
    const slow = gated('before the commit');
    const pending = answers.answer('dev', 'page', slow.compute);
    await there.transaction(() => there.clock.advance('dev', 1));
    // This sandbox's next request looks, while the answer is still being computed.
    await here.revalidate();
    slow.open();
    expect(await pending).toBe('before the commit');
    expect(await answers.answer('dev', 'page', async () => 'after the commit')).toBe('after the commit');
  });
});
