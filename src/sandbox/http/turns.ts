// Requests that may read thousands of rows (a search) take turns: one per turn of the event loop.
// The sandbox answers on one thread, and Node reads every request that has arrived before it runs
// any of their handlers; without turns, a health check or a retrieve that arrives behind thirty
// searches waits for all thirty. With them, the loop goes back to its sockets between two
// searches, and a cheap request is answered after at most one.
const waiting: Array<() => void> = [];
let granting = false;

function grantOne(): void {
  // The granted request runs once this callback returns (its promise continuation), then the loop
  // polls its sockets before the next grant: setImmediate from here runs at the next turn.
  waiting.shift()?.();
  if (waiting.length > 0) setImmediate(grantOne);
  else granting = false;
}

/** Resolves at a turn of the event loop of the caller's own, after the requests already waiting. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!granting) {
      granting = true;
      setImmediate(grantOne);
    }
  });
}

/** The query parameters that make a list a search, which may read thousands of matches. */
const SEARCH_PARAMETERS: Readonly<Record<string, readonly string[]>> = {
  listPaymentSessions: ['search'],
  listPaymentTokens: ['email', 'name'],
};

/** A list with a search waits for a turn of the event loop of its own. */
export const searchTakesTurn = (operationId: string, query: Readonly<Record<string, unknown>>) =>
  SEARCH_PARAMETERS[operationId]?.some((parameter) => query[parameter] !== undefined) ?? false;
