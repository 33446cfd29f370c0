// Group commit: the writes that arrive in the same turn of the event loop share one transaction.
// A commit costs more than most writes (its WAL frames go to the operating system), so fifty
// creates that arrive together pay for one. Each write still runs alone, in arrival order, inside
// a savepoint of its own: one that fails is rolled back alone, and the next ones see exactly the
// writes that came before them, as if each had its own transaction. Every write is answered only
// once the shared transaction has committed, so that an answered write survives a crash.

interface PendingWrite {
  run: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * `transaction` runs a function in a transaction, or in a savepoint when one is open (the store's,
 * which empties its cached facts when either rolls back).
 */
export function groupCommit(transaction: <T>(fn: () => T) => T): <T>(run: () => T) => Promise<T> {
  let pending: PendingWrite[] = [];

  function commitPending(): void {
    const writes = pending;
    pending = [];
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      transaction(() => {
        for (const write of writes) {
          try {
            outcomes.push({ ok: true, value: transaction(write.run) });
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

  return <T>(run: () => T) =>
    new Promise<T>((resolve, reject) => {
      pending.push({ run, resolve: resolve as (value: unknown) => void, reject });
      // After the poll phase: every request whose body arrived in this turn has joined.
      if (pending.length === 1) setImmediate(commitPending);
    });
}
