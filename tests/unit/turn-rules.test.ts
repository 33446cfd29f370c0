// The shares and the scheduling of FairTurns (http/turns.ts) beyond fair-turns.test.ts: a release
// frees the one share it holds, once, however often it is called and whatever else the channel
// still has running; and a grant comes in a turn of the loop that the request's asking scheduled.
import { describe, expect, it } from 'vitest';
import { FairTurns } from '../../src/sandbox/http/turns.js';

const nextLoopTurn = () => new Promise((resolve) => setImmediate(resolve));
const loopTurns = async (count: number) => {
  for (let i = 0; i < count; i++) await nextLoopTurn();
};

/** Asks for the turns of `names` in one channel, noting each grant in `granted` and its release in `releases`. */
function askAll(turns: FairTurns, channel: string, names: string[]) {
  const granted: string[] = [];
  const releases = new Map<string, () => void>();
  const asked = names.map((name) =>
    turns.enter(channel).then((release) => {
      granted.push(name);
      releases.set(name, release);
    }),
  );
  return { granted, releases, asked };
}

describe('a release', () => {
  it('called again after the next request took the freed share frees nothing more', async () => {
    const turns = new FairTurns(1);
    const { granted, releases, asked } = askAll(turns, 'a', ['a1', 'a2', 'a3']);
    await asked[0];
    releases.get('a1')!();
    await asked[1];
    releases.get('a1')!();
    await loopTurns(5);
    expect(granted).toEqual(['a1', 'a2']);
    releases.get('a2')!();
    await asked[2];
    expect(granted).toEqual(['a1', 'a2', 'a3']);
  });

  it('frees one share while the channel still has others running: the next waiting request takes it, the one after waits', async () => {
    const turns = new FairTurns(2);
    const { granted, releases, asked } = askAll(turns, 'a', ['a1', 'a2', 'a3', 'a4']);
    await Promise.all(asked.slice(0, 2));
    await loopTurns(5);
    expect(granted).toEqual(['a1', 'a2']);
    releases.get('a1')!();
    await asked[2];
    await loopTurns(5);
    expect(granted).toEqual(['a1', 'a2', 'a3']);
    releases.get('a2')!();
    await asked[3];
    expect(granted).toEqual(['a1', 'a2', 'a3', 'a4']);
  });
});

describe('a grant', () => {
  it('to a request that asks when no one waits comes after what the loop had queued before it asked', async () => {
    const turns = new FairTurns(10);
    const order: string[] = [];
    await turns.enter('a');
    // The last grant left no one waiting; work is queued on the loop, then another channel asks.
    setImmediate(() => order.push('queued before'));
    const granted = turns.enter('b').then(() => order.push('b granted'));
    await granted;
    expect(order).toEqual(['queued before', 'b granted']);
  });
});
