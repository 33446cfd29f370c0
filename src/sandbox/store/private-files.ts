// The database file is private to its owner: anyone who can read it can derive every listener's
// secret and forge the dashboard's tokens (the secrets it keeps), and anyone who can write it owns
// every channel. So the sandbox creates it 0600, and its folder 0700, whatever the umask; SQLite
// gives the -wal and -shm files it creates beside it the database file's own mode. A file that
// already exists keeps its mode (it is the user's), and the start says when others can read it.
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import path from 'node:path';

/** The files SQLite keeps of a database in WAL mode. */
export function databaseFiles(file: string): string[] {
  return [file, `${file}-wal`, `${file}-shm`];
}

/**
 * Creates the database's folder (0700) and the empty database file (0600), unless it exists. The
 * umask only takes bits away from a mode: the folders are private; the file is set to 0600
 * exactly afterwards, so that a umask that took its owner's bits does not leave it unwritable.
 */
export function createPrivately(file: string): void {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: 0o700 });
  let fd: number;
  try {
    // 'wx' fails on a file that exists: two sandboxes opening a new file at once create it once.
    fd = openSync(file, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw error;
  }
  closeSync(fd);
  chmodSync(file, 0o600);
}

/** The database's files that exist and that others (group or anyone) may read or write, with their modes. */
export function exposedFiles(file: string): Array<{ path: string; mode: number }> {
  return databaseFiles(path.resolve(file)).flatMap((at) => {
    const mode = statSync(at, { throwIfNoEntry: false })?.mode;
    return mode !== undefined && (mode & 0o077) !== 0 ? [{ path: at, mode: mode & 0o777 }] : [];
  });
}

/** One line for the start, naming each exposed file and the fix; undefined when none is. */
export function exposureWarning(file: string): string | undefined {
  const exposed = exposedFiles(file);
  if (exposed.length === 0) return undefined;
  const named = exposed.map((f) => `${f.path} (${f.mode.toString(8).padStart(4, '0')})`).join(', ');
  return `warning: other users of this machine can read or write the sandbox's database, from which they could derive every `
    + `listener secret and forge dashboard tokens: ${named}. Make it private: chmod 600 ${exposed.map((f) => quoted(f.path)).join(' ')}`;
}

/** A path as a shell reads it back: in single quotes when it holds anything but plain characters. */
function quoted(at: string): string {
  return /^[\w./-]+$/.test(at) ? at : `'${at.replace(/'/g, `'\\''`)}'`;
}
