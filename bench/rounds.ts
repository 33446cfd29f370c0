// Rounds of the sandbox's loads: each pair (the sandbox and its anchor) runs several times,
// alternated, and a figure is the median of the rounds with their spread. On a noisy machine a
// single run moves by half (the bare anchor alone read 27k and 50k req/s minutes apart): a ratio
// read within one round, then its median over rounds, holds where a single run does not.
import { availableParallelism, loadavg } from 'node:os';

/** How many rounds each pair runs (BENCH_ROUNDS, 3 by default). */
export function roundsOf(setting: string | undefined): number {
  if (setting === undefined || setting === '') return 3;
  const rounds = Number(setting);
  if (!Number.isInteger(rounds) || rounds < 1)
    throw new Error(`BENCH_ROUNDS must be a whole number of rounds from 1, not ${JSON.stringify(setting)}`);
  return rounds;
}

/**
 * The targets in the order round `round` runs them: as given in even rounds, reversed in odd ones,
 * so that no target always runs first, on a machine still cool, or last, after the others warmed it.
 */
export function roundOrder<T>(targets: readonly T[], round: number): T[] {
  return round % 2 === 0 ? [...targets] : [...targets].reverse();
}

/** The median of some numbers (the mean of the middle two of an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('The median of no value');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** A figure over the rounds: its median, and the lowest and highest round. */
export interface Spread {
  median: number;
  low: number;
  high: number;
}

export function spreadOf(values: readonly number[]): Spread {
  return { median: median(values), low: Math.min(...values), high: Math.max(...values) };
}

/** Each round's ratio of a target's figure to its anchor's, rounds matched by their number. */
export function roundRatios(
  target: ReadonlyArray<{ round: number; requestsPerSecond: number }>,
  anchor: ReadonlyArray<{ round: number; requestsPerSecond: number }>,
): number[] {
  return target.map((run) => {
    const same = anchor.find((other) => other.round === run.round);
    if (same === undefined) throw new Error(`No anchor run in round ${run.round}`);
    return run.requestsPerSecond / same.requestsPerSecond;
  });
}

/** `0.52× (0.49–0.62)`: a ratio's median and, over several rounds, its range. */
export function ratioText(spread: Spread, rounds: number): string {
  const median = `${spread.median.toFixed(2)}×`;
  return rounds > 1 ? `${median} (${spread.low.toFixed(2)}–${spread.high.toFixed(2)})` : median;
}

/** The machine's load when the bench starts: a busy machine reads lower ratios than a quiet one. */
export interface MachineLoad {
  /** The 1-, 5- and 15-minute load averages. */
  averages: number[];
  cores: number;
  /** A load above half the cores: other work takes a core from the servers or the load generator. */
  busy: boolean;
  text: string;
}

export function machineLoad(
  averages: readonly number[] = loadavg(),
  cores: number = availableParallelism(),
): MachineLoad {
  const [one = 0, five = 0, fifteen = 0] = averages;
  const busy = one > cores / 2;
  const text =
    `machine load at the start: ${one.toFixed(2)}, ${five.toFixed(2)}, ${fifteen.toFixed(2)} (1, 5, 15 min) on ${cores} cores` +
    (busy
      ? `. WARNING: the machine is busy (load above ${cores / 2}): the ratios below read lower than on a quiet machine; run again when it is quiet`
      : '');
  return { averages: [one, five, fifteen], cores, busy, text };
}
