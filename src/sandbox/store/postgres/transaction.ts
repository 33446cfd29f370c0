// What the store knows of the transaction a caller runs in: whether it writes, and the committed
// revision it started from (revision.ts). Kept apart from the runner (transactions.ts) so that the
// caches can name it without knowing how a transaction is run.

export interface Transaction {
  readonly kind: 'write' | 'read';
  /**
   * The revision of the state the transaction reads: a read's snapshot; for a write, the revision
   * committed before it (it commits `revision + 1`, since it holds the write lock from its start).
   */
  readonly revision: number;
}
