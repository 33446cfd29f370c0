// Whether any connection may have committed to a SQLite database in WAL mode since the last look,
// at the cost of reading 96 bytes. Every commit (and every checkpoint that restarts the log)
// rewrites the header of the wal-index, the `-shm` file beside the database, that every connection
// shares (https://sqlite.org/walformat.html#the_wal_index_file_format): a header that stays the
// same means no commit happened. `PRAGMA data_version` says it for sure, but it opens and closes a
// read transaction (two file locks and their release): about 4 µs of every request's 35, where this
// read costs about 1. A look says nothing of a snapshot not yet taken: a deferred transaction's
// first statement may read a later commit than the look saw (fact-cache.ts runs the pragma there).
//
// The -shm file's descriptor is kept open for the life of the process, one per file whatever
// the number of connections: SQLite holds POSIX locks on that file, and POSIX drops every lock a
// process holds on a file when the process closes any descriptor of it. Closing ours would take
// the locks of SQLite's connections with it, and another process could then checkpoint under a
// reader's snapshot. A descriptor is closed only once its file is deleted (SQLite deletes -shm as
// the last connection closes), when no connection can hold a lock on it by its path any more.
import { closeSync, fstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs';

/** One copy of the wal-index header: its change counter, frame count, salts and checksums. */
export const WAL_INDEX_HEADER_BYTES = 48;
/**
 * Both copies, read at once and compared whole with the last seen. A commit writes the second
 * copy, then the first: a writer killed between the two (which SQLite's next reader repairs)
 * has changed the second, and a look sees it.
 */
const HEADER_COPIES_BYTES = 2 * WAL_INDEX_HEADER_BYTES;

export interface CommitWatch {
  /**
   * False when no connection has committed since the last look that answered true (the header is
   * as it was then); true when one may have, the first time, or when the header cannot be read.
   */
  changed(): boolean;
  /** Takes the next look as the first: after a look whose answer was not acted on. */
  forget(): void;
}

/** A -shm file's descriptor, the path it was opened by, and how many live watches read it. */
interface OpenFile {
  file: string;
  fd: number;
  watches: number;
}

/**
 * The -shm descriptors this process reads, each read by every watch of its file. A path has more
 * than one only when its file was replaced: the watches opened before read the file they began on.
 */
const openFiles = new Set<OpenFile>();

/**
 * Closes the descriptors of deleted -shm files that no watch reads: nothing can lock them by
 * their path any more. A watch read on after the close would read whatever file took the number.
 */
function closeDeleted(): void {
  for (const open of openFiles) {
    if (open.watches > 0 || fstatSync(open.fd).nlink > 0) continue;
    openFiles.delete(open);
    closeSync(open.fd);
  }
}

/** A watch no longer reachable no longer reads its descriptor (its store was closed and dropped). */
const watchesGone = new FinalizationRegistry<OpenFile>((open) => {
  open.watches -= 1;
});

/**
 * This process's descriptor of a -shm file, opened once per file: the one kept when it is of the
 * file at that path now, else a new one; undefined while no file is there.
 */
function descriptorOf(file: string): OpenFile | undefined {
  closeDeleted();
  let inode: number;
  try {
    inode = statSync(file).ino;
  } catch {
    return undefined;
  }
  for (const open of openFiles) if (open.file === file && fstatSync(open.fd).ino === inode) return open;
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  const open = { file, fd, watches: 0 };
  openFiles.add(open);
  return open;
}

/** Always true: a database with no wal-index (in memory, or not in WAL mode) is looked at the slow way. */
const ALWAYS_CHANGED: CommitWatch = { changed: () => true, forget() {} };

/**
 * The commit watch of a database file (`databaseFile`, the path SQLite was given; its -shm is
 * beside the file a link points to, as SQLite opens it). `walMode` false gives a watch that always
 * answers true: a -shm file left beside a database out of WAL mode says nothing of its commits.
 * So does a database with no file (':memory:', '' for a temporary one), which no path resolves.
 */
export function commitWatch(databaseFile: string, walMode: boolean): CommitWatch {
  if (!walMode) return ALWAYS_CHANGED;
  let file: string;
  try {
    file = `${realpathSync(databaseFile)}-shm`;
  } catch {
    return ALWAYS_CHANGED;
  }
  const seen = Buffer.alloc(HEADER_COPIES_BYTES);
  const now = Buffer.alloc(HEADER_COPIES_BYTES);
  // Opened at the first look that finds the file (SQLite makes it at the first read in WAL mode),
  // then read at each look: while this watch's connection is open, SQLite deletes no -shm file.
  let fd: number | undefined;
  let looked = false;
  const watch: CommitWatch = {
    changed() {
      if (fd === undefined) {
        const open = descriptorOf(file);
        if (open !== undefined) {
          open.watches += 1;
          watchesGone.register(watch, open);
          fd = open.fd;
        }
      }
      if (fd === undefined || readSync(fd, now, 0, HEADER_COPIES_BYTES, 0) !== HEADER_COPIES_BYTES) return true;
      if (looked && now.equals(seen)) return false;
      now.copy(seen);
      looked = true;
      return true;
    },
    forget() {
      looked = false;
    },
  };
  return watch;
}
