// Group commit for an asynchronous store (group-commit.ts is the synchronous one, and says why):
// the writes that arrive in the same turn of the event loop share one transaction, each alone in
// a savepoint of its own, in arrival order, awaited before the next begins; one that fails is
// rolled back alone. Every write is answered only once the shared transaction has committed.

interface PendingWrite {
  run: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * `transaction` runs a function in a transaction, or in a savepoint when it is called inside the
 * open one (the store's, which empties its cached facts when either rolls back).
 */
export function asyncGroupCommit(
  transaction: <T>(fn: () => Promise<T>) => Promise<T>,
): <T>(run: () => Promise<T>) => Promise<T> {
  let pending: PendingWrite[] = [];

  async function commitPending(): Promise<void> {
    const writes = pending;
    pending = [];
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
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
    } catch (error) {
      // The shared transaction could not begin or commit: none of its writes happened.
      for (const write of writes) write.reject(error);
      return;
    }
    writes.forEach((write, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) write.resolve(outcome.value);
      else write.reject(outcome.error);
    });
  }

  return <T>(run: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      pending.push({ run, resolve: resolve as (value: unknown) => void, reject });
      // After the poll phase: every request whose body arrived in this turn has joined. commitPending
      // never rejects: each write's outcome goes to its own Promise.
      if (pending.length === 1) setImmediate(() => void commitPending());
    });
}
