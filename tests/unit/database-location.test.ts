// What --db names (src/sandbox/database-location.ts): a URL is never a file's name; postgres:// and
// postgresql:// are PostgreSQL, which this version refuses in one line; file:// URLs are files;
// every other scheme is refused in one line naming the forms --db takes; Windows paths and
// relative paths with a colon stay files.
import { describe, expect, it } from 'vitest';
import {
  DATABASE_FORMS,
  DatabaseLocationError,
  databaseLocation,
  sqliteDatabaseFile,
} from '../../src/sandbox/database-location.js';

const refusalOf = (value: string) => {
  try {
    databaseLocation(value);
  } catch (error) {
    expect(error).toBeInstanceOf(DatabaseLocationError);
    return (error as Error).message;
  }
  throw new Error(`${value} was not refused`);
};

describe('a --db that is a file', () => {
  it.each([
    ['.sandbox/sandbox.db'],
    ['/srv/sandbox.db'],
    [':memory:'],
    ['C:\\sandboxes\\one.db'],
    ['C:/sandboxes/one.db'],
    ['c://one.db'],
    ['data:v2.db'],
    ['file:x.db'],
    ['./mysql://x'],
    ['runs/12:30/sandbox.db'],
    [''],
  ])('%j is that file, as written', (value) => {
    expect(databaseLocation(value)).toEqual({ kind: 'sqlite', file: value });
  });

  it('a file:// URL is the file it names, its escapes decoded', () => {
    expect(databaseLocation('file:///srv/my%20sandbox.db')).toEqual({ kind: 'sqlite', file: '/srv/my sandbox.db' });
    expect(databaseLocation('FILE://localhost/srv/a.db')).toEqual({ kind: 'sqlite', file: '/srv/a.db' });
  });

  it('a file:// URL of another host, or with a query or a fragment, is refused in one line', () => {
    expect(refusalOf('file://fileserver/srv/a.db')).toBe(
      `--db file://fileserver/srv/a.db: a file:// URL of another host; --db takes ${DATABASE_FORMS}`,
    );
    expect(refusalOf('file:///srv/a.db?mode=ro')).toBe(
      `--db file:///srv/a.db?mode=ro: a file:// URL with a query or a fragment; --db takes ${DATABASE_FORMS}`,
    );
    expect(refusalOf('file:///srv/a.db#x')).toContain('with a query or a fragment');
  });
});

describe('a --db that is a server URL', () => {
  it.each([
    ['postgres://sandbox:secret@db.internal:5432/sandbox'],
    ['postgresql://localhost/sandbox'],
    ['PostgreSQL://localhost/sandbox'],
    ['postgres:///sandbox'],
  ])('%s is PostgreSQL', (value) => {
    expect(databaseLocation(value)).toEqual({ kind: 'postgres', url: value });
  });

  it('PostgreSQL is refused, in this version, in one line that quotes no password', () => {
    expect(() => sqliteDatabaseFile('postgres://sandbox:secret@db.internal/sandbox')).toThrow(DatabaseLocationError);
    expect(() => sqliteDatabaseFile('postgres://sandbox:secret@db.internal/sandbox')).toThrow(
      '--db postgres://…: the PostgreSQL store is not available in this version of the sandbox; --db takes the path ' +
        "of the database's file (created when missing), :memory:, or a file:// URL",
    );
  });

  it.each([
    ['mysql://root:secret@localhost/sandbox', 'mysql'],
    ['http://example.com/sandbox.db', 'http'],
    ['sqlite://sandbox.db', 'sqlite'],
    ['redis+tls://cache', 'redis+tls'],
  ])('%s is refused in one line naming the forms --db takes, and not its password', (value, scheme) => {
    const message = refusalOf(value);
    expect(message).toBe(`--db ${scheme}://…: the sandbox opens no ${scheme}: URL; --db takes ${DATABASE_FORMS}`);
    expect(message).not.toContain('secret');
    expect(message).not.toContain('\n');
  });

  it('the SQLite file of a path, :memory: or a file:// URL is what the sandbox opens', () => {
    expect(sqliteDatabaseFile('.sandbox/sandbox.db')).toBe('.sandbox/sandbox.db');
    expect(sqliteDatabaseFile(':memory:')).toBe(':memory:');
    expect(sqliteDatabaseFile('file:///tmp/a.db')).toBe('/tmp/a.db');
  });
});
