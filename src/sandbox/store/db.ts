// The type of an open database, in a module of its own: the opener (database.ts) and the
// migrations it runs (migrations.ts) both name it, and neither imports the other for it.
import type Database from 'better-sqlite3';

/** An open database (an interface of our own, so that the compiled declarations can name it). */
export interface Db extends Database.Database {}
