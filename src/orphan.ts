// Stops a long-running command when the process that started it is gone. `npm start` runs
// `npm → sh → node`; npm does not pass SIGTERM on, and when it dies the shell goes with it, leaving
// the server bound to its port. A process whose parent changed is an orphan: it stops too.

/**
 * The parent as this module is first imported, when the command starts: a parent that exits while
 * the server is still starting has left an orphan too, which the watch, begun once it listens,
 * would otherwise take for its parent.
 */
const parentAtStart = process.ppid;

export function exitWhenOrphaned(stop: () => void, everyMs = 500): void {
  const timer = setInterval(() => {
    if (process.ppid !== parentAtStart) {
      clearInterval(timer);
      stop();
    }
  }, everyMs);
  timer.unref();
}
