// How a sandbox stops on SIGTERM (or Ctrl-C) without losing what it was given: it says it is not
// ready (/ready answers 503, and every answer closes its connection), keeps accepting for a moment
// the connections that had already arrived, then stops listening, finishes the requests in flight,
// gives back the webhook deliveries it could not finish, and closes the database. A request cut off
// at the socket would leave its client unable to tell whether its write happened.
import type { Server } from 'node:http';

export const STOP_BOUNDS = {
  /**
   * The listener closes once no connection has arrived for this long: a client that connected
   * just before the signal (its connection queued, its request unread) is served, not reset.
   */
  quietMs: 100,
  /** ...and at the latest this long after the signal, however busy. */
  listenAtMostMs: 1_000,
  /** How long webhook attempts in flight may take to be answered before their claims are given back. */
  deliveryGraceMs: 5_000,
  /** The process exits by then whatever is left (cli.ts), with a line that says so. */
  deadlineMs: 10_000,
};

/** Resolves once `server` has accepted no connection for `quietMs`, or after `atMostMs`. */
export function quietListener(server: Server, quietMs: number, atMostMs: number): Promise<void> {
  return new Promise((resolve) => {
    let quiet: NodeJS.Timeout;
    const done = () => {
      clearTimeout(quiet);
      clearTimeout(atMost);
      server.off('connection', arrived);
      resolve();
    };
    const arrived = () => {
      clearTimeout(quiet);
      quiet = setTimeout(done, quietMs);
    };
    const atMost = setTimeout(done, atMostMs);
    server.on('connection', arrived);
    arrived();
  });
}
