// Requests that may make a large answer or read thousands of rows (a search, a list with its
// metadata, a long page) take turns, fairly between channels. The sandbox answers on one thread,
// and Node reads every request that has arrived before it runs any of their handlers: without turns,
// a health check or another channel's retrieve that arrives behind forty such lists waits for all
// forty. With them:
// - one heavy request starts per turn of the event loop, so that the loop goes back to its sockets
//   between two, and a cheap request is answered after at most one;
// - the turns go round the channels that are waiting, so that one channel's flood delays another
//   channel's heavy request by at most one of its own;
// - a channel has at most PER_CHANNEL heavy request in progress at once (on PostgreSQL it waits
//   for the database, and its rows are parsed as they arrive): the others wait for their turn. Two
//   at once let a PostgreSQL sandbox's answers stack up: another channel's retrieve waited 62 ms
//   at p99 behind them, 37 ms with one (npm run bench:fairness).
// Cheap requests (a retrieve, a create, a short page) never wait here.

/** Heavy requests of one channel in progress at once, in one sandbox. */
export const PER_CHANNEL = 1;

/** Grants turns: one per turn of the event loop, round the channels, at most `perChannel` of each running. */
export class FairTurns {
  private readonly waiting = new Map<string, Array<() => void>>();
  private readonly running = new Map<string, number>();
  /** The channels with requests waiting, in the order of their next turn. */
  private ring: string[] = [];
  private granting = false;

  constructor(private readonly perChannel = PER_CHANNEL) {}

  /** Resolves at the caller's turn; the function it gives ends the caller's share (call it once, when done). */
  enter(channel: string): Promise<() => void> {
    return new Promise((resolve) => {
      let queue = this.waiting.get(channel);
      if (!queue) {
        queue = [];
        this.waiting.set(channel, queue);
        this.ring.push(channel);
      }
      queue.push(() => resolve(this.releaser(channel)));
      this.schedule();
    });
  }

  private releaser(channel: string): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.running.get(channel) ?? 1) - 1;
      if (left > 0) this.running.set(channel, left);
      else this.running.delete(channel);
      this.schedule();
    };
  }

  private schedule(): void {
    if (this.granting) return;
    this.granting = true;
    setImmediate(() => this.grantOne());
  }

  /** Grants the turn of the first channel round the ring that may run one more; then the next turn's. */
  private grantOne(): void {
    this.granting = false;
    const index = this.ring.findIndex((channel) => (this.running.get(channel) ?? 0) < this.perChannel);
    // Every waiting channel has its share running: a release schedules the next grant.
    if (index === -1) return;
    const channel = this.ring[index]!;
    const queue = this.waiting.get(channel)!;
    const grant = queue.shift()!;
    // The channel goes to the back of the ring, or leaves it when it has no one waiting.
    this.ring.splice(index, 1);
    if (queue.length > 0) this.ring.push(channel);
    else this.waiting.delete(channel);
    this.running.set(channel, (this.running.get(channel) ?? 0) + 1);
    // The granted request runs once this callback returns (its promise continuation), then the
    // loop polls its sockets before the next grant.
    grant();
    if (this.ring.length > 0) this.schedule();
  }
}

/** The query parameters that make a list a search, which may read thousands of matches. */
const SEARCH_PARAMETERS: Readonly<Record<string, readonly string[]>> = {
  listPaymentSessions: ['search'],
  listPaymentTokens: ['email', 'name'],
};

/** The lists of the contract: their answers grow with their pages. */
const LISTS = new Set(['listPaymentSessions', 'listPaymentTokens', 'listCatalogItems', 'listDisputes']);

/** A page longer than this is heavy whatever its rows hold. */
const LONG_PAGE = 100;

/**
 * Whether a request takes a turn: a search, a list with its sessions' metadata (up to 240 KiB
 * each), or a long page. Decided from the route and the query alone, before anything is read.
 */
export const takesTurn = (operationId: string, query: Readonly<Record<string, unknown>>): boolean => {
  if (SEARCH_PARAMETERS[operationId]?.some((parameter) => query[parameter] !== undefined)) return true;
  if (!LISTS.has(operationId)) return false;
  return query.include_metadata === 'true' || Number(query.page_size ?? query.limit ?? 0) > LONG_PAGE;
};
