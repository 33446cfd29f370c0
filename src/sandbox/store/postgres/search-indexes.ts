// The indexes the searches of session-search.ts and token-search.ts read: pg_trgm's GIN trigram
// indexes in place of SQLite's FTS5 trigram tables (session_search, token_search), its queue
// (session_search_pending) and its channel numbers (search_channels), none of which PostgreSQL needs.
// A statement list for the schema's migrations to apply after the tables: pg_trgm is a trusted
// extension (PostgreSQL 13 and later), so the database's owner may create it.
//
// - Sessions: the four columns a search matches, each with trigram operators; a search's
//   `col LIKE '%needle%'` conditions, OR'ed, are answered by a BitmapOr of this one index.
// - Tokens: the two searched columns of active tokens only, as FTS5 held only active tokens.
// Either index proposes candidates that PostgreSQL checks against the LIKE itself (a trigram index is
// lossy and always rechecked), which is why the matches are exact.
export const SEARCH_INDEXES: readonly string[] = [
  'CREATE EXTENSION IF NOT EXISTS pg_trgm',
  `CREATE INDEX payment_sessions_search ON payment_sessions USING gin
    (id gin_trgm_ops, email_search gin_trgm_ops, name_search gin_trgm_ops, user_business_id gin_trgm_ops)`,
  `CREATE INDEX payment_tokens_search ON payment_tokens USING gin
    (email_search gin_trgm_ops, name_search gin_trgm_ops) WHERE status = 'active'`,
];
