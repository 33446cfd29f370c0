// A needle as a LIKE pattern that matches it as a substring: LIKE's own characters (% and _) and
// its escape (\) are escaped, so the pattern means the needle's characters and nothing else.
// LIKE compares characters exactly under a deterministic collation, as SQLite's instr() and the
// FTS5 trigram index's phrase match do on the lower-cased columns.
export const containing = (needle: string) => `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
