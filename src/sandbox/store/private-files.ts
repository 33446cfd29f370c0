// The database file is private to its owner: anyone who can read it can derive every listener's
// secret and forge the dashboard's tokens (the secrets it keeps), and anyone who can write it owns
// every channel. So the sandbox creates it 0600, and its folder 0700, whatever the umask; SQLite
// gives the -wal and -shm files it creates beside it the database file's own mode. A file that
// already exists keeps its mode (it is the user's), and the start says when others can read it.
//
// SQLite opens a --db that is a symbolic link at the file the link names, and writes -wal and -shm
// beside that file, not beside the link: so the file made private, and the files checked, are
// those at the end of the links (databasePath), even when that file does not exist yet.
import {
  chmodSync,
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  realpathSync,
  statSync,
  type Stats,
} from 'node:fs';
import path from 'node:path';

/** The files SQLite keeps of a database in WAL mode. */
export function databaseFiles(file: string): string[] {
  return [file, `${file}-wal`, `${file}-shm`];
}

/** What --db takes, for the refusals of a path that cannot be the database's file. */
const TAKES = "it takes the path of the database's file (created when missing), or :memory:";
/** Links followed at most, as the system's own limit (ELOOP) on Linux. */
const MOST_LINKS = 40;

/** A --db that cannot be the database's file: said in one line, with what --db takes. */
export class DatabasePathError extends Error {}

/**
 * What is at `at` (its link's target, or the link itself); undefined when nothing is, or a "folder" on the way is a
 * file.
 */
function found(at: string, link: 'follow' | 'not'): Stats | undefined {
  try {
    return link === 'follow' ? statSync(at) : lstatSync(at);
  } catch (error) {
    if (['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code!)) return undefined;
    throw error;
  }
}

/** The path with its folder's links resolved, when that folder exists (else as written: it is made as such). */
function physical(at: string): string {
  try {
    return path.join(realpathSync(path.dirname(at)), path.basename(at));
  } catch {
    return at;
  }
}

/**
 * The absolute path of the file SQLite opens for `file`: its symbolic links followed to the file
 * they name, which may not exist yet (a link to a file to be created).
 */
export function databasePath(file: string): string {
  let at = path.resolve(file);
  for (let hops = 0; hops <= MOST_LINKS; hops++) {
    at = physical(at);
    if (!found(at, 'not')?.isSymbolicLink()) return at;
    at = path.resolve(path.dirname(at), readlinkSync(at));
  }
  throw new DatabasePathError(`--db ${file} is a chain of more than ${MOST_LINKS} symbolic links: ${TAKES}`);
}

/**
 * The database's file for `file` (databasePath), or a DatabasePathError saying why `file` cannot
 * be one: empty, a folder or anything but a regular file, or in a "folder" that is a file.
 */
export function checkedDatabasePath(file: string): string {
  if (file === '') throw new DatabasePathError(`--db is empty: ${TAKES}`);
  const at = databasePath(file);
  const there = found(at, 'follow');
  if (there?.isDirectory()) {
    throw new DatabasePathError(`--db ${file} is a folder: ${TAKES}, such as ${path.join(file, 'sandbox.db')}`);
  }
  if (there !== undefined && !there.isFile())
    throw new DatabasePathError(`--db ${file} is not a regular file: ${TAKES}`);
  // The nearest of its folders that exists must be one.
  let folder = path.dirname(at);
  let stat = found(folder, 'follow');
  while (stat === undefined) {
    folder = path.dirname(folder);
    stat = found(folder, 'follow');
  }
  if (!stat.isDirectory()) throw new DatabasePathError(`--db ${file}: ${folder} is a file, not a folder: ${TAKES}`);
  return at;
}

/**
 * Creates the database's folder (0700) and the empty database file (0600), unless it exists, at
 * the end of the links of `file`; returns that file's path, for SQLite to open. The umask only
 * takes bits away from a mode: the folders are private; the file is set to 0600 exactly
 * afterwards, so that a umask that took its owner's bits does not leave it unwritable.
 */
export function createPrivately(file: string): string {
  const at = checkedDatabasePath(file);
  mkdirSync(path.dirname(at), { recursive: true, mode: 0o700 });
  let fd: number;
  try {
    // 'wx' fails on a file that exists: two sandboxes opening a new file at once create it once.
    fd = openSync(at, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return at;
    throw error;
  }
  closeSync(fd);
  chmodSync(at, 0o600);
  return at;
}

/**
 * The database's files that exist, at the end of the links of `file`, and that others (group or
 * anyone) may read or write, with their modes. Regular files only: a folder is no database's.
 */
export function exposedFiles(file: string): Array<{ path: string; mode: number }> {
  return databaseFiles(databasePath(file)).flatMap((at) => {
    const file = found(at, 'follow');
    return file?.isFile() && (file.mode & 0o077) !== 0 ? [{ path: at, mode: file.mode & 0o777 }] : [];
  });
}

/** One line for the start, naming each exposed file and the fix; undefined when none is. */
export function exposureWarning(file: string): string | undefined {
  const exposed = exposedFiles(file);
  if (exposed.length === 0) return undefined;
  const named = exposed.map((f) => `${f.path} (${f.mode.toString(8).padStart(4, '0')})`).join(', ');
  return (
    `warning: other users of this machine can read or write the sandbox's database, from which they could derive ` +
    `every ` +
    `listener secret and forge dashboard tokens: ${named}. Make it private: chmod 600 ` +
    `${exposed.map((f) => quoted(f.path)).join(' ')}`
  );
}

/** A path as a shell reads it back: in single quotes when it holds anything but plain characters. */
function quoted(at: string): string {
  return /^[\w./-]+$/.test(at) ? at : `'${at.replace(/'/g, `'\\''`)}'`;
}
