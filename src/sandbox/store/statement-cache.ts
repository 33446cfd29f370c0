// Statements whose SQL is composed per call (a list's filters): prepared once per text and kept,
// as better-sqlite3 advises, instead of prepared on every request.
import type { Db } from './database.js';

export function statementCache(db: Db): (sql: string) => ReturnType<Db['prepare']> {
  const cache = new Map<string, ReturnType<Db['prepare']>>();
  return (sql) => {
    let statement = cache.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      cache.set(sql, statement);
    }
    return statement;
  };
}
