// The PostgreSQL store's one way to the database: each repository asks through `PgQueries`, which
// sends the statement on the client of the transaction the caller runs in (an AsyncLocalStorage
// context opened by the store's transaction/read/write), or on the pool outside any transaction.
// Repositories know no driver: the choice of driver is made once, in connection.ts.

/** A row as the driver returns it: column name to value. */
export type Row = Record<string, unknown>;

export interface PgQueries {
  /** Every row the statement returns. `text` uses $1, $2... placeholders. */
  all<T extends Row = Row>(text: string, params?: readonly unknown[]): Promise<T[]>;
  /** The first row, or undefined. */
  one<T extends Row = Row>(text: string, params?: readonly unknown[]): Promise<T | undefined>;
  /** The first column of the first row, or undefined (better-sqlite3's `.pluck().get()`). */
  value<T = unknown>(text: string, params?: readonly unknown[]): Promise<T | undefined>;
  /** The first column of every row (`.pluck().all()`). */
  column<T = unknown>(text: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a statement for its effect: how many rows it changed. */
  run(text: string, params?: readonly unknown[]): Promise<number>;
}
