// The bench's rounds (bench/rounds.ts): alternated order, medians with their spread, ratios read
// within a round, and the warning a busy machine gets.
import { describe, expect, it } from 'vitest';
import { machineLoad, median, ratioText, roundOrder, roundRatios, roundsOf, spreadOf } from './rounds.js';

describe("the bench's rounds", () => {
  it('run 3 rounds unless BENCH_ROUNDS says otherwise, and refuse a setting that is no whole number from 1', () => {
    expect(roundsOf(undefined)).toBe(3);
    expect(roundsOf('')).toBe(3);
    expect(roundsOf('1')).toBe(1);
    expect(roundsOf('5')).toBe(5);
    for (const bad of ['0', '-1', '2.5', 'three', 'NaN', 'Infinity'])
      expect(() => roundsOf(bad), bad).toThrow(`BENCH_ROUNDS must be a whole number of rounds from 1, not "${bad}"`);
  });

  it('alternate the order of the targets: as given in even rounds, reversed in odd ones', () => {
    const targets = ['sandbox', 'prism', 'bare'];
    expect(roundOrder(targets, 0)).toEqual(['sandbox', 'prism', 'bare']);
    expect(roundOrder(targets, 1)).toEqual(['bare', 'prism', 'sandbox']);
    expect(roundOrder(targets, 2)).toEqual(['sandbox', 'prism', 'bare']);
    expect(targets).toEqual(['sandbox', 'prism', 'bare']);
  });

  it('take the median of the rounds, the middle two averaged for an even count, with the lowest and highest', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
    expect(() => median([])).toThrow('The median of no value');
    expect(spreadOf([0.62, 0.49, 0.52])).toEqual({ median: 0.52, low: 0.49, high: 0.62 });
  });

  it("read each ratio within its round: a target's figure over its anchor's of the same round", () => {
    const sandbox = [
      { round: 0, requestsPerSecond: 10 },
      { round: 1, requestsPerSecond: 30 },
    ];
    const bare = [
      { round: 1, requestsPerSecond: 60 },
      { round: 0, requestsPerSecond: 40 },
    ];
    expect(roundRatios(sandbox, bare)).toEqual([0.25, 0.5]);
    expect(() => roundRatios([{ round: 2, requestsPerSecond: 1 }], bare)).toThrow('No anchor run in round 2');
  });

  it('print a ratio with its range over several rounds, and alone for one', () => {
    expect(ratioText({ median: 0.523, low: 0.491, high: 0.618 }, 3)).toBe('0.52× (0.49–0.62)');
    expect(ratioText({ median: 0.523, low: 0.523, high: 0.523 }, 1)).toBe('0.52×');
  });

  it('print the load at the start, and warn when it is above half the cores', () => {
    const quiet = machineLoad([0.42, 0.3, 0.25], 2);
    expect(quiet).toEqual({
      averages: [0.42, 0.3, 0.25],
      cores: 2,
      busy: false,
      text: 'machine load at the start: 0.42, 0.30, 0.25 (1, 5, 15 min) on 2 cores',
    });
    expect(machineLoad([1, 1, 1], 2).busy).toBe(false);
    const busy = machineLoad([1.01, 0.5, 0.2], 2);
    expect(busy.busy).toBe(true);
    expect(busy.text).toBe(
      'machine load at the start: 1.01, 0.50, 0.20 (1, 5, 15 min) on 2 cores. WARNING: the machine is busy (load above 1): the ratios below read lower than on a quiet machine; run again when it is quiet',
    );
    expect(machineLoad([], 4).averages).toEqual([0, 0, 0]);
  });
});
