// The turns of heavy requests (http/turns.ts): one starts per turn of the event loop, the turns go
// round the channels that wait, and a channel has at most one in progress (by default).
import { describe, expect, it } from 'vitest';
import { FairTurns, PER_CHANNEL, takesTurn } from '../../src/sandbox/http/turns.js';

const nextLoopTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Asks for a turn, and notes the grant in `order` when it comes. */
function ask(turns: FairTurns, channel: string, name: string, order: string[], releases: Map<string, () => void>) {
  return turns.enter(channel).then((release) => {
    order.push(name);
    releases.set(name, release);
  });
}

describe('fair turns', () => {
  it('grant one request per turn of the event loop', async () => {
    const turns = new FairTurns(10);
    const order: string[] = [];
    const releases = new Map<string, () => void>();
    for (const name of ['a1', 'a2', 'a3']) void ask(turns, 'a', name, order, releases);
    await nextLoopTurn();
    expect(order).toEqual(['a1']);
    await nextLoopTurn();
    expect(order).toEqual(['a1', 'a2']);
    await nextLoopTurn();
    expect(order).toEqual(['a1', 'a2', 'a3']);
  });

  it("go round the channels: another channel's request waits for one of the flooding channel's, not all", async () => {
    const turns = new FairTurns(10);
    const order: string[] = [];
    const releases = new Map<string, () => void>();
    const asked = ['a1', 'a2', 'a3', 'a4'].map((name) => ask(turns, 'a', name, order, releases));
    asked.push(ask(turns, 'b', 'b1', order, releases));
    await Promise.all(asked);
    expect(order).toEqual(['a1', 'b1', 'a2', 'a3', 'a4']);
  });

  it('let a channel have one in progress by default', () => {
    expect(PER_CHANNEL).toBe(1);
  });

  it('let a channel have as many in progress as it is given at most: the next waits for a release', async () => {
    const turns = new FairTurns(2);
    const order: string[] = [];
    const releases = new Map<string, () => void>();
    const third = ['a1', 'a2', 'a3'].map((name) => ask(turns, 'a', name, order, releases))[2]!;
    void ask(turns, 'b', 'b1', order, releases);
    for (let i = 0; i < 6; i++) await nextLoopTurn();
    expect(order).toEqual(['a1', 'b1', 'a2']);
    releases.get('a1')!();
    // Released twice, it frees one share, not two.
    releases.get('a1')!();
    await third;
    expect(order).toEqual(['a1', 'b1', 'a2', 'a3']);
  });

  it('give a channel that has nothing running its turn at once, whatever another holds', async () => {
    const turns = new FairTurns(1);
    const order: string[] = [];
    const releases = new Map<string, () => void>();
    await ask(turns, 'a', 'a1', order, releases);
    void ask(turns, 'a', 'a2', order, releases);
    await ask(turns, 'b', 'b1', order, releases);
    expect(order).toEqual(['a1', 'b1']);
  });
});

describe('which requests take a turn', () => {
  it.each([
    ['listPaymentSessions', { search: 'ann' }, true],
    ['listPaymentTokens', { email: 'ann' }, true],
    ['listPaymentTokens', { name: 'ann' }, true],
    ['listPaymentSessions', { include_metadata: 'true' }, true],
    ['listPaymentSessions', { page_size: '101' }, true],
    ['listCatalogItems', { page_size: '400' }, true],
    ['listDisputes', { limit: '101' }, true],
    ['listPaymentSessions', { include_metadata: 'false' }, false],
    ['listPaymentSessions', { page_size: '100' }, false],
    ['listPaymentSessions', {}, false],
    ['listPaymentTokens', { card_expires_before: '2030-01' }, false],
    ['retrievePaymentSession', { include_metadata: 'true', page_size: '400' }, false],
    ['createPaymentSession', {}, false],
  ])('%s %j: %s', (operationId, query, expected) => {
    expect(takesTurn(operationId, query)).toBe(expected);
  });
});
