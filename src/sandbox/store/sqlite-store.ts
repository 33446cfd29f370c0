// The SQLite store's own interface: the application's (store.ts) as it was before a server
// database needed it asynchronous. better-sqlite3 answers at once, so the SQLite repositories stay
// synchronous (cheaper, and their tests call them directly); sqlite-backend.ts adapts this
// interface to the asynchronous one the application uses. Each method keeps the meaning its
// namesake in store.ts documents.
import type { Card } from '../domain/cards.js';
import type { KeyScope, ManagedKey } from '../domain/api-keys.js';
import type { KeyFilter, NewManagedKey } from './api-keys.js';
import type { RateLimit } from '../domain/rate-limit.js';
import type { Withdrawal } from './rate-buckets.js';
import type { CatalogFacts, Letter, LetterStatus } from '../domain/letters.js';
import type { NewItem, StoredCatalogItem } from '../domain/catalog.js';
import type { DrillSettings } from '../domain/evolution-drill.js';
import type { SessionListFilter } from '../domain/listing.js';
import type { ShownToken } from '../domain/payment-tokens.js';
import type { ProvisionRequest } from '../domain/provisioning.js';
import type { TokenListFilter } from '../domain/token-listing.js';
import type { DomainEvent, Features, PaymentTokenRecord, Session, TokenAction, TokenStatus } from '../domain/types.js';
import type { ListFlags } from '../domain/views.js';
import type { DeliveryWakeUp } from './wake-up.js';
import type { ActivityEvent } from './activity.js';
import type { CatalogListFilter } from './catalog.js';
import type {
  AttemptRecord,
  ClaimedDelivery,
  DeliveryClaim,
  DueDelivery,
  EventAttempt,
  HeldDelivery,
  WebhookEndpoint,
} from './deliveries.js';
import type { ArmedFault } from './faults.js';
import type { WebhookListener } from './listeners.js';
import type { OutboxEvent } from './outbox.js';
import type { PageWindow, ResetCounts, SchemaVersions } from './store.js';

/** Payment sessions, with the renderings that retrieve and list answer (the store's projection of them). */
export interface SessionsRepository {
  insert(session: Session): void;
  update(session: Session): void;
  /** A session of this channel; another channel's is not found. */
  get(channel: string, id: string): Session | undefined;
  /** Any channel's session: only for the customer's hosted pages, which carry no API key. */
  getForCustomer(id: string): Session | undefined;
  /** A session of this channel as retrieve answers it, as a JSON text. */
  detailView(channel: string, id: string): string | undefined;
  /** The answer of a read of the channel's sessions, kept as text until one of them changes. */
  answer(channel: string, key: string, compute: () => string): string;
  findByIdempotencyKey(channel: string, key: string): Session | undefined;
  /** One page of the channel's sessions matching the filter, newest first, and how many match in all. */
  list(channel: string, filter: SessionListFilter, page: PageWindow): { sessions: Session[]; count: number };
  /** The same page as default list items, as JSON texts. */
  listViews(channel: string, filter: SessionListFilter, page: PageWindow): { views: string[]; count: number };
  /** The same page as list items with the query's flags, as JSON texts each rendered when asked for. */
  listItems(
    channel: string,
    filter: SessionListFilter,
    page: PageWindow,
    flags: ListFlags,
  ): { items: Iterable<string>; count: number };
  /** Indexes up to `limit` of the sessions queued for the search index (the maintenance timer calls it). */
  indexPendingSearches(limit?: number): void;
}

export interface CustomersRepository {
  /** The business id of the channel's customer with this key, minted by `mint` when the key is new. */
  businessIdOf(channel: string, customerKey: string, mint: () => string): string;
}

export interface TokensRepository {
  insert(record: PaymentTokenRecord): void;
  get(channel: string, token: string): PaymentTokenRecord | undefined;
  /** Any channel's token: only for the customer's hosted pages, which carry no API key. */
  getForCustomer(token: string): PaymentTokenRecord | undefined;
  /** The customer's first active token on the channel, if they have one. */
  activeOf(channel: string, customerKey: string): string | undefined;
  setStatus(channel: string, token: string, status: TokenStatus): void;
  setNextAction(channel: string, token: string, action: TokenAction | null): void;
  setCard(channel: string, token: string, card: Card): void;
  /** The customer's letters changed: every token of theirs shows the same letter expiry. */
  setLetterExpiry(channel: string, customerKey: string, expiresOn: string | null): void;
  list(channel: string, filter: TokenListFilter, page: PageWindow): { tokens: PaymentTokenRecord[]; count: number };
  /** The same page with only what the list shows of each token. */
  listed(channel: string, filter: TokenListFilter, page: PageWindow): { tokens: Iterable<ShownToken>; count: number };
}

export interface ProvisionRequestsRepository {
  insert(request: ProvisionRequest): void;
  update(request: ProvisionRequest): void;
  get(channel: string, id: string): ProvisionRequest | undefined;
  /** Any channel's request: only for the customer's hosted pages, which carry no API key. */
  getForCustomer(id: string): ProvisionRequest | undefined;
  findByIdempotencyKey(channel: string, key: string): ProvisionRequest | undefined;
  /** Whether a letter of the customer awaits the clinician. */
  hasLetterAwaited(channel: string, customerKey: string): boolean;
  /** The requests of a token that still await the customer or the clinician. */
  openForToken(channel: string, token: string): ProvisionRequest[];
}

export interface LettersRepository {
  add(channel: string, letter: Omit<Letter, 'seq'>): void;
  ofCustomer(channel: string, customerKey: string): Letter[];
  ofRequest(id: string): Letter | undefined;
  decide(provisionRequestId: string, status: LetterStatus, expiresOn: string | null): void;
}

export interface CatalogRepository {
  insert(channel: string, item: StoredCatalogItem): void;
  update(channel: string, item: StoredCatalogItem): void;
  get(channel: string, sku: string): StoredCatalogItem | undefined;
  /** Replaces the channel's items with these, oldest first. */
  replace(channel: string, items: NewItem[], now: string, productId: () => string): void;
  /** Lays down the seed catalog of a channel that never had one. */
  seed(channel: string, now: string, productId: () => string): void;
  /** The eligibility of each of these skus the catalog has. */
  eligibilityOf(channel: string, skus: string[]): Map<string, string | null>;
  /** What an eligibility answer needs of the catalog. */
  facts(channel: string, skus: string[]): CatalogFacts;
  /** The skus that need a letter of medical necessity. */
  lmnSkus(channel: string): string[];
  list(channel: string, filter: CatalogListFilter, page: PageWindow): { items: StoredCatalogItem[]; count: number };
  /** The same page, each item read when asked for, and the bytes its items take at least. */
  listed(
    channel: string,
    filter: CatalogListFilter,
    page: PageWindow,
  ): { items: Iterable<StoredCatalogItem>; count: number; knownBytes: number };
}

export interface DisputesRepository {
  register(channel: string, disputeId: string, sessionId: string): void;
  sessionOf(channel: string, disputeId: string): string | undefined;
  /** A page of the channel's disputes, newest first, before a cursor (a sequence number). */
  page(
    channel: string,
    before: number,
    limit: number,
  ): { rows: Array<{ dispute_id: string; session_id: string; seq: number }>; hasMore: boolean };
}

/** The webhook outbox: every event is written in the same transaction as the change that fired it. */
export interface Outbox {
  /**
   * Stores the event as fired, and queues its deliveries; `drillFollowUp`, the webhook_delivery_id
   * of the evolution drill's event of an unknown type, queues that after it too.
   */
  enqueue(channel: string, event: DomainEvent, now: string, deliveryId: string, drillFollowUp?: string): void;
  /** Delivers an event again, under the same webhook_delivery_id, to the endpoints subscribed to it now. */
  redeliver(channel: string, outboxId: number, now: string): number | undefined;
  /** One page of the channel's events after the cursor, oldest first. */
  list(
    channel: string,
    page: { eventType?: string; after?: number; limit: number },
  ): { events: OutboxEvent[]; hasMore: boolean };
}

/** Webhook endpoints, their deliveries and the log of attempts. */
export interface DeliveriesRepository {
  addEndpoint(endpoint: WebhookEndpoint, origin?: 'cli' | 'helper'): void;
  /** The endpoint --webhook-url owns on the channel, if any. */
  cliEndpoint(channel: string): WebhookEndpoint | undefined;
  /** Points an endpoint elsewhere: its pending deliveries go to the new URL, signed with the new secret. */
  repoint(id: string, url: string, secret: string): void;
  /** Whether a delivery is still waiting. */
  isPending(id: number): boolean;
  /** The endpoint as it is now; undefined once removed. */
  endpoint(id: string): WebhookEndpoint | undefined;
  /** The channel's endpoints, listeners aside. */
  endpoints(channel: string): WebhookEndpoint[];
  /** Every channel's endpoints that the dispatcher POSTs to (listeners aside). */
  allEndpoints(): WebhookEndpoint[];
  setSecret(channel: string, id: string, secret: string): void;
  /** Removes an endpoint; its pending deliveries end. */
  removeEndpoint(channel: string, id: string): boolean;
  /** The endpoint's due deliveries, oldest event first, but those in `skip` (in flight); each body as sent now. */
  due(endpointId: string, now: string, page: { skip: number[]; limit: number }): DueDelivery[];
  claim(endpointId: string, now: string, limit: number, owner: string, leaseMs: number): ClaimedDelivery[];
  deliveredByClaim(claim: DeliveryClaim, attempt: AttemptRecord, outboxId: number, at: string): boolean;
  failedByClaim(claim: DeliveryClaim, attempt: AttemptRecord, dueAt: string | null): boolean;
  release(deliveryId: number, claim: DeliveryClaim): boolean;
  heldClaim(deliveryId: number): HeldDelivery | undefined;
  leasedCount(endpointId: string): number;
  pendingCount(): number;
  /** When the endpoint's next pending delivery is due (channel clock), if any. */
  nextDue(endpointId: string): string | null;
  delivered(attempt: AttemptRecord, outboxId: number, at: string): void;
  /** A failed attempt: due again at `dueAt`, or failed for good when `dueAt` is null. */
  failed(attempt: AttemptRecord, dueAt: string | null): void;
  /** The delivery's latest attempt in the log, if any. */
  lastAttempt(deliveryId: number): EventAttempt | undefined;
  /** When the delivery is due again (channel clock); null once it is no longer pending. */
  dueAt(deliveryId: number): string | null;
  attempts(channel: string, page: { after: number; limit: number }): { rows: EventAttempt[]; hasMore: boolean };
}

/** What the dashboard reads: a session's events, the newest events with their attempts, the revision. */
export interface ActivityQueries {
  sessionEvents(
    channel: string,
    session: string,
    page: { after: number; limit: number },
  ): { rows: ActivityEvent[]; hasMore: boolean };
  sessionEventTime(channel: string, session: string, eventId: number): string | undefined;
  newestEvents(channel: string, page: { before: number; limit: number }): { rows: ActivityEvent[]; hasMore: boolean };
  latestAttempts(event: ActivityEvent): { rows: EventAttempt[]; hasMore: boolean };
  /** Changes with every write and every restart. */
  revision(channel: string): string;
}

/** Webhook endpoints whose deliveries a command line claims (`hsa-fsa-sandbox listen`). */
export interface ListenersRepository {
  add(listener: WebhookListener): void;
  live(channel: string, since: number): WebhookListener[];
  liveOne(channel: string, id: string, since: number): WebhookListener | undefined;
  touch(id: string, at: number): void;
  expired(before: number): Array<{ channel: string; id: string }>;
}

/** The SQLite store, synchronous: what createStore (index.ts) makes. */
export interface SyncSandboxStore {
  /** Runs fn in one IMMEDIATE transaction: all of a request's writes commit together or not at all. */
  transaction<T>(fn: () => T): T;
  /** Runs fn in a deferred transaction: a consistent read, for functions that do not write. */
  read<T>(fn: () => T): T;
  /** Empties the cached facts when another process has committed since the last look. */
  revalidate(): void;
  /** The database's schema version against this store's. */
  schemaVersions(): SchemaVersions;
  /** Whether the store is still open (a timer that outlives the server's close does nothing). */
  isOpen(): boolean;
  sessions: SessionsRepository;
  /** The channel's customers and their business ids. */
  customers: CustomersRepository;
  tokens: TokensRepository;
  provisionRequests: ProvisionRequestsRepository;
  letters: LettersRepository;
  catalog: CatalogRepository;
  disputes: DisputesRepository;
  outbox: Outbox;
  deliveries: DeliveriesRepository;
  activity: ActivityQueries;
  listeners: ListenersRepository;
  /** Who is woken when a delivery is queued: given when the store was made. */
  deliveryWakeUp: DeliveryWakeUp;
  features: { get(channel: string): Features; set(channel: string, features: Features): void };
  rateBuckets: { withdraw(keyHash: string, limit: RateLimit, want: number, nowMs: number): Withdrawal };
  apiKeys: {
    scopeOf(hash: string, now: string): KeyScope | undefined;
    insert(key: NewManagedKey): void;
    get(id: string): ManagedKey | undefined;
    list(filter: KeyFilter): { keys: ManagedKey[]; next?: number };
    end(id: string, at: string): void;
    revoke(id: string, at: string): boolean;
  };
  /** Each channel's evolution drill: whether it plays a later version of the service. */
  drill: { get(channel: string): DrillSettings; set(channel: string, settings: DrillSettings): void };
  faults: {
    /** Whether the channel has any fault left: most requests never take a write lock for faults. */
    anyArmed(channel: string): boolean;
    arm(channel: string, operationId: string, fault: ArmedFault, count: number): void;
    /** Spends one armed fault of the operation (a write). */
    take(channel: string, operationId: string): ArmedFault | undefined;
  };
  /** Each channel's sandbox clock. */
  clock: {
    now(channel: string): string;
    offsetSeconds(channel: string): number;
    advance(channel: string, seconds: number): void;
  };
  /** The secret of the hosted pages' form tokens. */
  pageSecret: { get(): Buffer };
  /** Deletes everything of one channel, or of all; what it deleted. */
  reset: { channel(channel: string): ResetCounts; all(): ResetCounts };
}
