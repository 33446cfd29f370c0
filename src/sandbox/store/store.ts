// The store as the application asks for it, in the domain's words: what app/, http/ and delivery/
// may call, whatever the backend. Every call that reads or writes the database answers a Promise,
// since a server database's driver (PostgreSQL) can only answer that way; what stays in the
// process (isOpen, deliveryWakeUp) answers at once. The SQLite store is synchronous
// (sqlite-store.ts, made by index.ts) and sqlite-backend.ts adapts it to this interface; another
// backend implements this interface itself, and the same suites run against it.
import type { KeyScope, ManagedKey } from '../domain/api-keys.js';
import type { KeyFilter, NewManagedKey } from './api-keys.js';
import type { RateLimit } from '../domain/rate-limit.js';
import type { Withdrawal } from './rate-buckets.js';
import type { Card } from '../domain/cards.js';
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

/** A page by position: skip `offset` rows, read up to `limit`. */
export interface PageWindow {
  offset: number;
  limit: number;
}

/**
 * The body a due delivery sends now, from the event as the outbox holds it and the channel's
 * evolution drill (which shapes it as it is sent, never as it is stored).
 */
export type DeliveryShaper = (delivery: DueDelivery, drill: DrillSettings) => string;

/** Payment sessions, with the renderings that retrieve and list answer (the store's projection of them). */
export interface SessionsRepository {
  insert(session: Session): Promise<void>;
  update(session: Session): Promise<void>;
  /** A session of this channel; another channel's is not found. */
  get(channel: string, id: string): Promise<Session | undefined>;
  /** Any channel's session: only for the customer's hosted pages, which carry no API key. */
  getForCustomer(id: string): Promise<Session | undefined>;
  /** A session of this channel as retrieve answers it, as a JSON text. */
  detailView(channel: string, id: string): Promise<string | undefined>;
  /** The answer of a read of the channel's sessions, kept as text until one of them changes. */
  answer(channel: string, key: string, compute: () => Promise<string>): Promise<string>;
  findByIdempotencyKey(channel: string, key: string): Promise<Session | undefined>;
  /** One page of the channel's sessions matching the filter, newest first, and how many match in all. */
  list(channel: string, filter: SessionListFilter, page: PageWindow): Promise<{ sessions: Session[]; count: number }>;
  /** The same page as default list items, as JSON texts. */
  listViews(channel: string, filter: SessionListFilter, page: PageWindow): Promise<{ views: string[]; count: number }>;
  /** The same page as list items with the query's flags, as JSON texts each rendered when asked for. */
  listItems(
    channel: string,
    filter: SessionListFilter,
    page: PageWindow,
    flags: ListFlags,
  ): Promise<{ items: Iterable<string>; count: number }>;
  /** Indexes up to `limit` of the sessions queued for the search index (the maintenance timer calls it). */
  indexPendingSearches(limit?: number): Promise<void>;
}

export interface CustomersRepository {
  /** The business id of the channel's customer with this key, minted by `mint` when the key is new. */
  businessIdOf(channel: string, customerKey: string, mint: () => string): Promise<string>;
}

export interface TokensRepository {
  insert(record: PaymentTokenRecord): Promise<void>;
  get(channel: string, token: string): Promise<PaymentTokenRecord | undefined>;
  /** Any channel's token: only for the customer's hosted pages, which carry no API key. */
  getForCustomer(token: string): Promise<PaymentTokenRecord | undefined>;
  /** The customer's first active token on the channel, if they have one. */
  activeOf(channel: string, customerKey: string): Promise<string | undefined>;
  setStatus(channel: string, token: string, status: TokenStatus): Promise<void>;
  setNextAction(channel: string, token: string, action: TokenAction | null): Promise<void>;
  setCard(channel: string, token: string, card: Card): Promise<void>;
  /** The customer's letters changed: every token of theirs shows the same letter expiry. */
  setLetterExpiry(channel: string, customerKey: string, expiresOn: string | null): Promise<void>;
  list(
    channel: string,
    filter: TokenListFilter,
    page: PageWindow,
  ): Promise<{ tokens: PaymentTokenRecord[]; count: number }>;
  /** The same page with only what the list shows of each token. */
  listed(
    channel: string,
    filter: TokenListFilter,
    page: PageWindow,
  ): Promise<{ tokens: Iterable<ShownToken>; count: number }>;
}

export interface ProvisionRequestsRepository {
  insert(request: ProvisionRequest): Promise<void>;
  update(request: ProvisionRequest): Promise<void>;
  get(channel: string, id: string): Promise<ProvisionRequest | undefined>;
  /** Any channel's request: only for the customer's hosted pages, which carry no API key. */
  getForCustomer(id: string): Promise<ProvisionRequest | undefined>;
  findByIdempotencyKey(channel: string, key: string): Promise<ProvisionRequest | undefined>;
  /** Whether a letter of the customer awaits the clinician. */
  hasLetterAwaited(channel: string, customerKey: string): Promise<boolean>;
  /** The requests of a token that still await the customer or the clinician. */
  openForToken(channel: string, token: string): Promise<ProvisionRequest[]>;
}

export interface LettersRepository {
  add(channel: string, letter: Omit<Letter, 'seq'>): Promise<void>;
  ofCustomer(channel: string, customerKey: string): Promise<Letter[]>;
  ofRequest(id: string): Promise<Letter | undefined>;
  decide(provisionRequestId: string, status: LetterStatus, expiresOn: string | null): Promise<void>;
}

export interface CatalogRepository {
  insert(channel: string, item: StoredCatalogItem): Promise<void>;
  update(channel: string, item: StoredCatalogItem): Promise<void>;
  get(channel: string, sku: string): Promise<StoredCatalogItem | undefined>;
  /** Replaces the channel's items with these, oldest first. */
  replace(channel: string, items: NewItem[], now: string, productId: () => string): Promise<void>;
  /** Lays down the seed catalog of a channel that never had one. */
  seed(channel: string, now: string, productId: () => string): Promise<void>;
  /** The eligibility of each of these skus the catalog has. */
  eligibilityOf(channel: string, skus: string[]): Promise<Map<string, string | null>>;
  /** What an eligibility answer needs of the catalog. */
  facts(channel: string, skus: string[]): Promise<CatalogFacts>;
  /** The skus that need a letter of medical necessity. */
  lmnSkus(channel: string): Promise<string[]>;
  list(
    channel: string,
    filter: CatalogListFilter,
    page: PageWindow,
  ): Promise<{ items: StoredCatalogItem[]; count: number }>;
  /** The same page, each item read when asked for, and the bytes its items take at least. */
  listed(
    channel: string,
    filter: CatalogListFilter,
    page: PageWindow,
  ): Promise<{ items: Iterable<StoredCatalogItem>; count: number; knownBytes: number }>;
}

export interface DisputesRepository {
  register(channel: string, disputeId: string, sessionId: string): Promise<void>;
  sessionOf(channel: string, disputeId: string): Promise<string | undefined>;
  /** A page of the channel's disputes, newest first, before a cursor (a sequence number). */
  page(
    channel: string,
    before: number,
    limit: number,
  ): Promise<{ rows: Array<{ dispute_id: string; session_id: string; seq: number }>; hasMore: boolean }>;
}

/** The webhook outbox: every event is written in the same transaction as the change that fired it. */
export interface Outbox {
  /**
   * Stores the event as fired, and queues its deliveries; `drillFollowUp`, the webhook_delivery_id
   * of the evolution drill's event of an unknown type, queues that after it too.
   */
  enqueue(channel: string, event: DomainEvent, now: string, deliveryId: string, drillFollowUp?: string): Promise<void>;
  /** Delivers an event again, under the same webhook_delivery_id, to the endpoints subscribed to it now. */
  redeliver(channel: string, outboxId: number, now: string): Promise<number | undefined>;
  /** One page of the channel's events after the cursor, oldest first. */
  list(
    channel: string,
    page: { eventType?: string; after?: number; limit: number },
  ): Promise<{ events: OutboxEvent[]; hasMore: boolean }>;
}

/** Webhook endpoints, their deliveries and the log of attempts. */
export interface DeliveriesRepository {
  addEndpoint(endpoint: WebhookEndpoint, origin?: 'cli' | 'helper'): Promise<void>;
  /** The endpoint --webhook-url owns on the channel, if any. */
  cliEndpoint(channel: string): Promise<WebhookEndpoint | undefined>;
  /** Points an endpoint elsewhere: its pending deliveries go to the new URL, signed with the new secret. */
  repoint(id: string, url: string, secret: string): Promise<void>;
  /** Whether a delivery is still waiting. */
  isPending(id: number): Promise<boolean>;
  /** The endpoint as it is now; undefined once removed. */
  endpoint(id: string): Promise<WebhookEndpoint | undefined>;
  /** The channel's endpoints, listeners aside. */
  endpoints(channel: string): Promise<WebhookEndpoint[]>;
  /** Every channel's endpoints that the dispatcher POSTs to (listeners aside). */
  allEndpoints(): Promise<WebhookEndpoint[]>;
  setSecret(channel: string, id: string, secret: string): Promise<void>;
  /** Removes an endpoint; its pending deliveries end. */
  removeEndpoint(channel: string, id: string): Promise<boolean>;
  /**
   * The endpoint's due deliveries, oldest event first, but those leased (to any sandbox) or in
   * `skip`; each body as sent now. A read: what a claim would find.
   */
  due(endpointId: string, now: string, page: { skip: number[]; limit: number }): Promise<DueDelivery[]>;
  /**
   * Leases up to `limit` of the endpoint's due deliveries to `owner` for `leaseMs` (a wall clock
   * every sandbox of the database shares), oldest event first, none leased to another and only the
   * oldest pending delivery of each resource; each body as sent now. Of several sandboxes claiming
   * at once, each delivery goes to one. Runs on its own, never inside a read-only transaction.
   */
  claim(endpointId: string, now: string, limit: number, owner: string, leaseMs: number): Promise<ClaimedDelivery[]>;
  /**
   * `delivered`, only if the claim still holds the delivery: whether the attempt was recorded. A
   * late report, the lease run out and the delivery claimed again since, changes nothing.
   */
  deliveredByClaim(claim: DeliveryClaim, attempt: AttemptRecord, outboxId: number, at: string): Promise<boolean>;
  /** `failed`, only if the claim still holds the delivery: whether the attempt was recorded. */
  failedByClaim(claim: DeliveryClaim, attempt: AttemptRecord, dueAt: string | null): Promise<boolean>;
  /** Gives a claim back unsent: the delivery is due to any sandbox at once. */
  release(deliveryId: number, claim: DeliveryClaim): Promise<boolean>;
  /** The claim whose lease holds the pending delivery now, if any (a listener's report names it). */
  heldClaim(deliveryId: number): Promise<HeldDelivery | undefined>;
  /** How many of the endpoint's pending deliveries are leased now (a listener holds at most so many). */
  leasedCount(endpointId: string): Promise<number>;
  /** Every endpoint's pending deliveries: the outbox's depth. */
  pendingCount(): Promise<number>;
  /** When the endpoint's next pending delivery is due (channel clock), if any. */
  nextDue(endpointId: string): Promise<string | null>;
  delivered(attempt: AttemptRecord, outboxId: number, at: string): Promise<void>;
  /** A failed attempt: due again at `dueAt`, or failed for good when `dueAt` is null. */
  failed(attempt: AttemptRecord, dueAt: string | null): Promise<void>;
  /** The delivery's latest attempt in the log, if any. */
  lastAttempt(deliveryId: number): Promise<EventAttempt | undefined>;
  /** When the delivery is due again (channel clock); null once it is no longer pending. */
  dueAt(deliveryId: number): Promise<string | null>;
  attempts(
    channel: string,
    page: { after: number; limit: number },
  ): Promise<{ rows: EventAttempt[]; hasMore: boolean }>;
}

/** What the dashboard reads: a session's events, the newest events with their attempts, the revision. */
export interface ActivityQueries {
  sessionEvents(
    channel: string,
    session: string,
    page: { after: number; limit: number },
  ): Promise<{ rows: ActivityEvent[]; hasMore: boolean }>;
  sessionEventTime(channel: string, session: string, eventId: number): Promise<string | undefined>;
  newestEvents(
    channel: string,
    page: { before: number; limit: number },
  ): Promise<{ rows: ActivityEvent[]; hasMore: boolean }>;
  latestAttempts(event: ActivityEvent): Promise<{ rows: EventAttempt[]; hasMore: boolean }>;
  /** Changes with every write and every restart. */
  revision(channel: string): Promise<string>;
}

/** Webhook endpoints whose deliveries a command line claims (`hsa-fsa-sandbox listen`). */
export interface ListenersRepository {
  add(listener: WebhookListener): Promise<void>;
  live(channel: string, since: number): Promise<WebhookListener[]>;
  liveOne(channel: string, id: string, since: number): Promise<WebhookListener | undefined>;
  touch(id: string, at: number): Promise<void>;
  expired(before: number): Promise<Array<{ channel: string; id: string }>>;
}

/** What a reset deleted. */
/**
 * The newest schema version the database holds and the newest this store knows. They differ when
 * a newer sandbox has migrated the database since this one started (a rolling upgrade): this one
 * then writes by rules the schema has left, and should take no more requests.
 */
/** A connection pool's connections: open (in use or idle), idle, and the requests waiting for one. */
export interface PoolUse {
  open: number;
  idle: number;
  waiting: number;
}

export interface SchemaVersions {
  database: number;
  known: number;
}

/** The API keys an operator manages (domain/api-keys.ts), stored by their hash. */
export interface ApiKeysRepository {
  /** What the key whose hash this is lets its bearer do, when the key serves at `now`. */
  scopeOf(hash: string, now: string): Promise<KeyScope | undefined>;
  insert(key: NewManagedKey): Promise<void>;
  get(id: string): Promise<ManagedKey | undefined>;
  /** A page of keys in the order they were made, of one channel or of all; `after` is the last page's `next`. */
  list(filter: KeyFilter): Promise<{ keys: ManagedKey[]; next?: number }>;
  /** Ends the key at `at` (a rotation's overlap). */
  end(id: string, at: string): Promise<void>;
  /** Ends the key now; false when it was already revoked (or does not exist). */
  revoke(id: string, at: string): Promise<boolean>;
}

export interface ResetCounts {
  payment_sessions: number;
  payment_tokens: number;
  outbox_events: number;
}

export interface SandboxStore {
  /**
   * Runs fn in one write transaction, which waits for every other writer's, of any process (SQLite's
   * BEGIN IMMEDIATE, PostgreSQL's write lock): all of a request's writes commit together or not at all.
   * The store's calls that fn makes, awaited or not, run in it; a call from outside waits until it
   * has ended, so it never sees a write before it is committed.
   */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * Runs fn in a transaction shared with the other writes of this turn of the event loop, alone
   * in a savepoint; resolves once the shared transaction has committed. `lane` (the channel) keeps
   * one channel's burst of writes from delaying another's (group-commit.ts).
   */
  write<T>(fn: () => Promise<T>, lane?: string): Promise<T>;
  /** Runs fn in a read transaction (one snapshot): a consistent read, for functions that do not write. */
  read<T>(fn: () => Promise<T>): Promise<T>;
  /** Empties the cached facts when another process has committed since the last look. */
  revalidate(): Promise<void>;
  /** The connection pool's use now (PostgreSQL's; the SQLite store has one connection, and says undefined). */
  poolUse(): PoolUse | undefined;
  /** The database's schema version against this store's: read from the database, so it fails when the database does not answer. */
  schemaVersions(): Promise<SchemaVersions>;
  /** Whether the store is still open (a timer that outlives the server's close does nothing): no database call. */
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
  features: { get(channel: string): Promise<Features>; set(channel: string, features: Features): Promise<void> };
  apiKeys: ApiKeysRepository;
  /** The API keys' rate-limit buckets: a withdrawal is one statement, outside any transaction. */
  rateBuckets: { withdraw(keyHash: string, limit: RateLimit, want: number, nowMs: number): Promise<Withdrawal> };
  /** Each channel's evolution drill: whether it plays a later version of the service. */
  drill: { get(channel: string): Promise<DrillSettings>; set(channel: string, settings: DrillSettings): Promise<void> };
  faults: {
    /** Whether the channel has any fault left: most requests never take a write lock for faults. */
    anyArmed(channel: string): Promise<boolean>;
    arm(channel: string, operationId: string, fault: ArmedFault, count: number): Promise<void>;
    /** Spends one armed fault of the operation (a write). */
    take(channel: string, operationId: string): Promise<ArmedFault | undefined>;
  };
  /** Each channel's sandbox clock. */
  clock: {
    now(channel: string): Promise<string>;
    offsetSeconds(channel: string): Promise<number>;
    advance(channel: string, seconds: number): Promise<void>;
  };
  /** The secret of the hosted pages' form tokens. */
  pageSecret: { get(): Promise<Buffer> };
  /** Deletes everything of one channel, or of all; what it deleted. */
  reset: { channel(channel: string): Promise<ResetCounts>; all(): Promise<ResetCounts> };
}
