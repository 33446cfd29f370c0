// Group commit, for both stores: the writes that arrive together share one write transaction, each
// alone in a savepoint of its own, run one after the other in arrival order: one that fails is
// rolled back alone, and each sees exactly the writes before it. A commit (SQLite's sync to disk,
// PostgreSQL's round trips and the write lock every sandbox waits for) is paid once for the group.
// "Together" is this turn of the event loop, and, while a group is committing, every write that
// arrives meanwhile: they form the next group. Every write is answered once its group has
// committed, so that an answered write is in the database.
// Fair between channels: while several lanes (channels) wait, a group takes at most PER_LANE writes
// of each, going round the lanes, and the rest wait for the next group; so a channel's burst of
// writes makes another channel's write wait for a few of its own, not for the whole burst. A lane
// alone takes up to a backend's `loneLane` writes (LONE_LANE by default): a commit shared by many
// of one channel's writes is cheaper, and the group a newcomer may find committing stays as short
// as the backend's choice makes it: a few milliseconds.
import { AsyncLocalStorage } from 'node:async_hooks';

/** Writes of one lane a group takes at most, while other lanes wait too. */
export const PER_LANE = 2;
/** Writes a group takes at most when one lane alone waits, unless the backend says otherwise. */
export const LONE_LANE = 8;

interface PendingWrite {
  lane: string;
  run: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * `transaction` runs a function in a write transaction, or in a savepoint of the caller's;
 * `inTransaction` tells whether the caller is in one. A write asked for inside a transaction runs
 * in a savepoint of it at once: queued for a group, it would wait for the transaction to end, and a
 * transaction that awaits it would never end.
 */
export function groupCommit(
  transaction: <T>(fn: () => Promise<T>) => Promise<T>,
  inTransaction: () => boolean,
  loneLane = LONE_LANE,
): <T>(run: () => Promise<T>, lane?: string) => Promise<T> {
  let pending: PendingWrite[] = [];
  let committing = false;

  async function commitPending(): Promise<void> {
    const { writes, left } = nextGroup(pending, loneLane);
    pending = left;
    committing = true;
    const outcomes: Outcome[] = [];
    try {
      await transaction(async () => {
        for (const write of writes) {
          try {
            outcomes.push({ ok: true, value: await transaction(write.run) });
          } catch (error) {
            outcomes.push({ ok: false, error });
          }
        }
      });
      writes.forEach((write, i) => {
        const outcome = outcomes[i]!;
        if (outcome.ok) write.resolve(outcome.value);
        else write.reject(outcome.error);
      });
    } catch (error) {
      // The shared transaction could not begin or commit: none of its writes happened.
      for (const write of writes) write.reject(error);
    } finally {
      committing = false;
      if (pending.length > 0) setImmediate(startGroup);
    }
  }

  // In the context the store was made in, not in that of whoever asked first: the group is a
  // transaction of its own, even when that caller was inside another (which may have ended by then).
  const outside = AsyncLocalStorage.snapshot();
  const startGroup = () => outside(() => void commitPending());

  return <T>(run: () => Promise<T>, lane = '') =>
    inTransaction()
      ? transaction(run)
      : new Promise<T>((resolve, reject) => {
          pending.push({ lane, run, resolve: resolve as (value: unknown) => void, reject });
          // After the poll phase: every request whose body arrived in this turn has joined.
          if (pending.length === 1 && !committing) setImmediate(startGroup);
        });
}

/**
 * The next group: round the lanes in the order they first wait, one write of each at a time, at
 * most PER_LANE of one lane (`loneLane` when it waits alone); each lane's writes in their arrival
 * order. The rest wait, in order.
 */
export function nextGroup<W extends { lane: string }>(
  pending: readonly W[],
  loneLane = LONE_LANE,
): { writes: W[]; left: W[] } {
  const lanes = new Map<string, W[]>();
  for (const write of pending) {
    const lane = lanes.get(write.lane);
    if (lane) lane.push(write);
    else lanes.set(write.lane, [write]);
  }
  const writes: W[] = [];
  const perLane = lanes.size > 1 ? PER_LANE : loneLane;
  for (let round = 0; round < perLane; round++)
    for (const lane of lanes.values()) {
      const write = lane[round];
      if (write) writes.push(write);
    }
  const taken = new Set(writes);
  return { writes, left: pending.filter((write) => !taken.has(write)) };
}
