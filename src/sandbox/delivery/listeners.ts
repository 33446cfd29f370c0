// Webhook listeners (`hsa-fsa-sandbox listen`): endpoints whose deliveries the dispatcher never
// POSTs, since only the command line reaches the address they are forwarded to. The command line
// claims the due ones (a long poll), forwards each, and reports what its receiver answered, which is
// recorded as the dispatcher records its own attempts (delivery/record.ts): the same log, the same
// outcome rules, the same retry schedule, the same order per resource (store/deliveries.ts).
//
// The deliveries each listener holds are leased in the database (store.deliveries.claim), so that
// a command line may claim through one sandbox of the database and report through another: a
// claim leases them under its own id until their report, or for LEASE_MS, after which they are due
// again (a command line that vanished mid-forward loses nothing). The report names the claim's id:
// a report of a claim whose lease ran out is refused and leaves any claim made since alone.
//
// How many a listener may hold is counted in the database too: a claim hands at most 8 (the
// deliveries the dispatcher sends an endpoint at once), and a listener holds at most 64 unreported
// (the attempts open per endpoint), so that a claim's work and its answer stay bounded. The command
// line sends them by the dispatcher's slots (domain/delivery-slots.ts), and asks for as many as it
// has free.
//
// This module keeps what the database does not:
// - the claims waiting for work, woken when a delivery is queued through this sandbox or a report
//   is recorded here, and every LOOK_EVERY_MS (a delivery queued through another sandbox, a lease
//   ended, a retry come due, or the clock advanced);
// - which listeners a command line uses now: one of its claims waits, or it asked within IN_USE_MS
//   and was not seen to go (a claim whose client went away; no claim FIRST_CLAIM_MS after it
//   registered). A registration takes up only a
//   listener no command line uses: two running `listen`s never share one, so that one's Ctrl-C
//   removes nothing the other claims from;
// - the sweep of listeners that stopped asking: gone after IDLE_EXPIRY_MS, with their deliveries.
import { CONCURRENT_PER_ENDPOINT, OPEN_PER_ENDPOINT } from '../domain/delivery-slots.js';
import { listenerClaimId, randomIds, type IdSource } from '../ids.js';
import type { SandboxStore } from '../store/store.js';
import type { ClaimedDelivery as LeasedDelivery, HeldDelivery } from '../store/deliveries.js';
import type { WebhookListener } from '../store/listeners.js';
import { deliveryRequest, type DeliveryRequest } from './attempt.js';

/**
 * A listener that has not asked for its deliveries this long (real time) expires: twice the longest wait of a claim
 * (30 s).
 */
export const IDLE_EXPIRY_MS = 60_000;
/** A claimed delivery not reported this long is due again: the command line forwards with a 10 s timeout. */
export const LEASE_MS = 30_000;
/**
 * A listener that asked this long ago (real time) may still be in use: the longest wait of a claim
 * (30 s), which a claim served by another sandbox of the database may be in, and 5 s for the next
 * claim (the command line claims again at once, or when a slot comes free, reporting meanwhile).
 */
export const IN_USE_MS = 35_000;
/**
 * A listener registered (or taken up) that has not asked since is in use this long only: a command
 * line claims as soon as it has registered, so one that has not is gone (killed at once).
 */
export const FIRST_CLAIM_MS = 1000;
/** Deliveries a claim hands at most, and a listener holds unreported at most. */
export const CLAIM_MOST = CONCURRENT_PER_ENDPOINT;
export const HOLD_MOST = OPEN_PER_ENDPOINT;
const LOOK_EVERY_MS = 250;
const SWEEP_EVERY_MS = 5_000;

export interface ClaimedDelivery {
  delivery: LeasedDelivery;
  /**
   * This claim's id (`lc_…`), new on every claim of the delivery: its report names it. The owner
   * of the claim in the database: the deliveries of one claim share it.
   */
  claimId: string;
  /** What the command line sends: the bytes and headers, signed now, as the dispatcher would send them. */
  request: DeliveryRequest;
}

export class WebhookListeners {
  /** Claims waiting for work: each wakes when called. */
  private readonly waiting = new Set<() => void>();
  /** Per listener id, how many of its claims wait now (this sandbox's); a listener with none has no entry. */
  private readonly claimsWaiting = new Map<string, number>();
  /** Listeners whose last claim ended with its client gone: their command line stopped. */
  private readonly leftBehind = new Set<string>();
  /** Per listener registered or taken up here, its polled_at then: while it is the same, it has not asked since. */
  private readonly registeredAt = new Map<string, number>();
  private readonly stopWatching: () => void;
  private readonly sweepTimer: NodeJS.Timeout;
  private closed = false;

  /** Real time, Unix ms: when a listener asked, and when it expires. */
  readonly now: () => number;

  constructor(
    private readonly store: SandboxStore,
    clocks: { now?: () => number } = {},
  ) {
    this.now = clocks.now ?? (() => Date.now());
    // Told inside the writing transaction: wake the waiting claims once it has committed.
    this.stopWatching = store.deliveryWakeUp.add(() => {
      if (this.waiting.size > 0) setImmediate(() => this.wakeAll());
    });
    this.sweepTimer = setInterval(() => this.sweep(), SWEEP_EVERY_MS);
    this.sweepTimer.unref();
  }

  /** Unix ms before which a listener's last request makes it expired. */
  cutoff(): number {
    return this.now() - IDLE_EXPIRY_MS;
  }

  /**
   * At most `limit` (and CLAIM_MOST) of the listener's due deliveries, oldest event first, leased to
   * it under a new claim id and signed with the real time now; none while it holds HOLD_MOST.
   */
  async claim(
    listener: WebhookListener,
    limit: number = CLAIM_MOST,
    ids: IdSource = randomIds,
  ): Promise<ClaimedDelivery[]> {
    const free = Math.min(limit, CLAIM_MOST, HOLD_MOST - (await this.store.deliveries.leasedCount(listener.id)));
    if (free <= 0) return [];
    const now = await this.store.clock.now(listener.channel);
    const claimId = listenerClaimId(ids);
    const claimed = await this.store.deliveries.claim(listener.id, now, free, claimId, LEASE_MS);
    return claimed.map((delivery) => ({ delivery, claimId, request: deliveryRequest(listener, delivery.payload) }));
  }

  /** Whether a claim would find a delivery now: a read, so that a waiting claim writes only when it has work. */
  async hasDue(listener: WebhookListener): Promise<boolean> {
    if ((await this.store.deliveries.leasedCount(listener.id)) >= HOLD_MOST) return false;
    const now = await this.store.clock.now(listener.channel);
    const due = await this.store.deliveries.due(listener.id, now, { skip: [], limit: 1 });
    return due.length > 0;
  }

  /**
   * The delivery the claim `claimId` holds for the listener, for its report; undefined when that
   * claim holds none: never made, reported already, or its lease ran out. Whichever sandbox of the
   * database the claim was made through.
   */
  async held(listenerId: string, deliveryId: number, claimId: string): Promise<HeldDelivery | undefined> {
    const held = await this.store.deliveries.heldClaim(deliveryId);
    return held?.endpoint_id === listenerId && held.claim.owner === claimId ? held : undefined;
  }

  /**
   * A report was recorded: a hold came free (and the resource's next event may be due), so a waiting
   * claim looks again at once rather than at its next look.
   */
  reported(): void {
    if (this.waiting.size > 0) setImmediate(() => this.wakeAll());
  }

  /** The listener is gone: its leases go with it, and what is known of its claims. */
  forget(listenerId: string): void {
    this.claimsWaiting.delete(listenerId);
    this.leftBehind.delete(listenerId);
    this.registeredAt.delete(listenerId);
  }

  /**
   * A claim of the listener waits, until the function returned is called (once), told whether the
   * claim's client went away: with no other claim of it waiting, its command line has stopped.
   */
  claimWaits(listenerId: string): (clientGone: boolean) => void {
    this.claimsWaiting.set(listenerId, (this.claimsWaiting.get(listenerId) ?? 0) + 1);
    this.leftBehind.delete(listenerId);
    this.registeredAt.delete(listenerId);
    return (clientGone) => {
      const count = this.claimsWaiting.get(listenerId);
      // Forgotten meanwhile (removed, or expired): nothing to know of it any more.
      if (count === undefined) return;
      if (count > 1) return void this.claimsWaiting.set(listenerId, count - 1);
      this.claimsWaiting.delete(listenerId);
      if (clientGone) this.leftBehind.add(listenerId);
    };
  }

  /**
   * Whether a command line uses the listener now: one of its claims waits, or it asked (claimed,
   * reported or registered) within IN_USE_MS, unless its last claim's client was seen to go, or
   * it has not asked since it was registered here FIRST_CLAIM_MS ago.
   */
  inUse(listener: WebhookListener): boolean {
    if (this.claimsWaiting.has(listener.id)) return true;
    if (this.leftBehind.has(listener.id)) return false;
    const bound = this.registeredAt.get(listener.id) === listener.polled_at ? FIRST_CLAIM_MS : IN_USE_MS;
    return listener.polled_at > this.now() - bound;
  }

  /** A command line registered the listener, or took it up, at `polledAt`: it is in use again. */
  registered(listenerId: string, polledAt: number): void {
    this.leftBehind.delete(listenerId);
    this.registeredAt.set(listenerId, polledAt);
  }

  /**
   * Resolves when work may have come for a waiting claim: a delivery was queued, LOOK_EVERY_MS
   * passed (or `ms`, if sooner), the client went away, or the sandbox is closing.
   */
  nextChance(ms: number, gone: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waiting.delete(wake);
        gone.removeEventListener('abort', wake);
        resolve();
      };
      const timer = setTimeout(wake, Math.max(0, Math.min(ms, LOOK_EVERY_MS)));
      this.waiting.add(wake);
      gone.addEventListener('abort', wake, { once: true });
      if (this.closed || gone.aborted) wake();
    });
  }

  /** Whether the sandbox is closing: a waiting claim answers at once, and claims nothing more. */
  get closing(): boolean {
    return this.closed;
  }

  /**
   * Inside a write: removes every listener that stopped asking, as deleting an endpoint does (its
   * pending deliveries end). Also run every SWEEP_EVERY_MS.
   */
  async removeExpired(): Promise<void> {
    for (const { channel, id } of await this.store.listeners.expired(this.cutoff())) {
      await this.store.deliveries.removeEndpoint(channel, id);
      this.forget(id);
    }
  }

  /** Stops the sweep and answers every waiting claim. */
  close(): void {
    this.closed = true;
    clearInterval(this.sweepTimer);
    this.stopWatching();
    this.wakeAll();
  }

  private async sweep(): Promise<void> {
    try {
      if (this.store.isOpen()) await this.store.transaction(() => this.removeExpired());
    } catch (error) {
      // A busy database (another process writing) is swept at the next tick.
      if (!/SQLITE_BUSY|database is locked/i.test((error as Error).message))
        console.error(`webhook listeners: ${(error as Error).message}`);
    }
  }

  private wakeAll(): void {
    for (const wake of [...this.waiting]) wake();
  }
}
