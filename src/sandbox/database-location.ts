// What --db (or SANDBOX_DB) names: SQLite's file, :memory:, or a server's URL. A value that looks
// like a URL is never taken for a file name: `mysql://host/db` would otherwise become a folder
// `mysql:` beside the sandbox, holding a SQLite file the user never asked for.
//
// A URL is `scheme://…` with a scheme of two characters or more, so that a Windows path (`C:\x`,
// `C:/x`) and a relative path with a colon (`data:v2.db`, `file:x.db`) stay files. `file://` URLs
// are files, written as URLs: `file:///srv/sandbox.db` names one file without doubt, and is taken
// as that path; one with a host, a query or a fragment (SQLite's URI parameters such as
// ?mode=ro, which the sandbox would not honour) is refused rather than half-understood.
import { fileURLToPath } from 'node:url';

export type DatabaseLocation =
  /** A file's path as written (relative to the working folder), or ':memory:'. */
  | { kind: 'sqlite'; file: string }
  /** A PostgreSQL connection URL (postgres:// or postgresql://), as written. */
  | { kind: 'postgres'; url: string };

/** A --db that names no database this sandbox can open: said in one line, with the forms it takes. */
export class DatabaseLocationError extends Error {}

/** The forms --db takes, for the refusals. */
export const DATABASE_FORMS = "the path of the database's file (created when missing), :memory:, or a file:// URL";

const URL_LIKE = /^([A-Za-z][A-Za-z0-9+.-]+):\/\//;
const POSTGRES_SCHEMES = ['postgres', 'postgresql'];

/**
 * Where `value` says the database is. Only the URL's scheme is ever quoted back: the rest may hold
 * a password.
 */
export function databaseLocation(value: string): DatabaseLocation {
  const scheme = URL_LIKE.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined) return { kind: 'sqlite', file: value };
  if (POSTGRES_SCHEMES.includes(scheme)) return { kind: 'postgres', url: value };
  if (scheme === 'file') return { kind: 'sqlite', file: fileOfUrl(value) };
  throw new DatabaseLocationError(
    `--db ${scheme}://…: the sandbox opens no ${scheme}: URL; --db takes ${DATABASE_FORMS}`,
  );
}

function fileOfUrl(value: string): string {
  const refusal = (why: string) => new DatabaseLocationError(`--db ${value}: ${why}; --db takes ${DATABASE_FORMS}`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refusal('not a URL');
  }
  if (url.search !== '' || url.hash !== '') throw refusal('a file:// URL with a query or a fragment');
  try {
    // Decodes %20 and the like, and refuses a host other than localhost (another machine's file).
    return fileURLToPath(url);
  } catch {
    throw refusal('a file:// URL of another host');
  }
}

/**
 * The SQLite file the sandbox opens for `value`; a PostgreSQL URL, which this version cannot use,
 * is refused in one line.
 */
export function sqliteDatabaseFile(value: string): string {
  const location = databaseLocation(value);
  if (location.kind === 'postgres')
    throw new DatabaseLocationError(
      `--db postgres://…: the PostgreSQL store is not available in this version of the sandbox; --db takes ` +
        DATABASE_FORMS,
    );
  return location.file;
}
