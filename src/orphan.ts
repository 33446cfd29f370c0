// Stops a long-running command when the process that started it is gone. `npm start` runs
// `npm → sh → node`; npm does not pass SIGTERM on, and when it dies the shell goes with it, leaving
// the server bound to its port. A process whose parent changed is an orphan: it stops too.
export function exitWhenOrphaned(stop: () => void, everyMs = 500): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      stop();
    }
  }, everyMs);
  timer.unref();
}
