// Webhook endpoints of each channel, the deliveries of outbox events to them, and the log of every
// attempt. Deliveries are written with their event (store/outbox.ts), so none is ever lost; the
// delivery queue (delivery/queue.ts) claims the due ones and records each attempt here.
// Several sandbox processes may share one file: each claim leases its deliveries (claimed_by,
// claim_seq, lease_until, migration 22) inside BEGIN IMMEDIATE, which serializes the claims of
// every process, so that the others skip them until the lease ends; a report counts only from the
// claim that holds the delivery now. Leases are on the machine's wall clock (Unix ms), which every
// process opening the file shares.
import { UNKNOWN_EVENT_TYPE } from '../domain/evolution-drill.js';
import type { ResponseExcerpt } from '../domain/response-excerpt.js';
import { LAST_STORED_TIME_TEXT } from '../domain/stored-time.js';
import type { Db } from './database.js';

export type EndpointMode = 'signed' | 'legacy';

export interface WebhookEndpoint {
  id: string;
  channel: string;
  url: string;
  event_types: string[];
  secret: string;
  mode: EndpointMode;
  created_at: string;
}

export interface DueDelivery {
  id: number;
  channel: string;
  outbox_id: number;
  attempts: number;
  first_due_at: string;
  /**
   * The body as it is sent now (createStore's shapeDelivery): the event as the outbox holds it,
   * shaped by the channel's evolution drill while it is on, or the drill's event of an unknown type
   * after it.
   */
  payload: string;
  /** The webhook_delivery_id of the drill's event of an unknown type, when this delivery sends it after its event. */
  drill_follow_up: string | null;
}

/**
 * One claim of a delivery: who made it (a sandbox's dispatcher, or a listener's claim id) and which
 * of the delivery's claims it is. A report counts only from the claim that holds the delivery now.
 */
export interface DeliveryClaim {
  owner: string;
  seq: number;
}

/** A due delivery leased to the caller, and the claim its report names. */
export interface ClaimedDelivery extends DueDelivery {
  claim: DeliveryClaim;
}

/** The claim that holds a delivery now (its lease not run out), and what its report needs of the delivery. */
export interface HeldDelivery {
  claim: DeliveryClaim;
  endpoint_id: string;
  attempts: number;
  first_due_at: string;
  outbox_id: number;
}

export interface AttemptRecord {
  channel: string;
  delivery_id: number;
  attempted_at: string;
  status: number | null;
  latency_ms: number;
  response: ResponseExcerpt | null;
  error: string | null;
}

/**
 * The `response` column holds the excerpt as JSON. Rows written before it did hold the body's first
 * 200 bytes as text: read as an excerpt, truncated unless shorter than that.
 */
export function storedExcerpt(column: string | null): ResponseExcerpt | null {
  if (column === null) return null;
  try {
    const stored = JSON.parse(column) as Partial<ResponseExcerpt> | null;
    if (typeof stored?.text === 'string' && typeof stored.truncated === 'boolean' && stored.body_bytes !== undefined)
      return stored as ResponseExcerpt;
  } catch {
    // an excerpt of the earlier kind
  }
  const bytes = Buffer.byteLength(column);
  return bytes < 200
    ? { text: column, truncated: false, body_bytes: bytes }
    : { text: column, truncated: true, body_bytes: null };
}

/**
 * An attempt with its delivery, event and endpoint: a row of the log of deliveries, as the helpers and the dashboard
 * read it.
 */
export interface EventAttempt {
  id: number;
  attempted_at: string;
  status: number | null;
  latency_ms: number;
  response_excerpt: ResponseExcerpt | null;
  error: string | null;
  endpoint_id: string;
  delivery_attempts: number;
  delivery_status: 'pending' | 'delivered' | 'failed';
  event_id: number;
  webhook_delivery_id: string;
  event_type: string;
  url: string | null;
}

/** An attempt as the log query reads it: the response as stored. */
type AttemptRow = Omit<EventAttempt, 'response_excerpt'> & { response: string | null };

const readAttempt = ({ response, ...row }: AttemptRow): EventAttempt => ({
  ...row,
  response_excerpt: storedExcerpt(response),
});

interface EndpointRow extends Omit<WebhookEndpoint, 'event_types'> {
  event_types: string;
}

const storable = (attempt: AttemptRecord) => ({
  ...attempt,
  response: attempt.response === null ? null : JSON.stringify(attempt.response),
});

const readEndpoint = ({
  origin: _origin,
  polled_at: _polled,
  ...row
}: EndpointRow & { origin?: string; polled_at?: number | null }): WebhookEndpoint => ({
  ...row,
  event_types: JSON.parse(row.event_types) as string[],
});

export function deliveriesRepository(db: Db) {
  const insertEndpoint =
    db.prepare(`INSERT INTO webhook_endpoints (id, channel, url, event_types, secret, mode, created_at, origin)
    VALUES (@id, @channel, @url, @event_types, @secret, @mode, @created_at, @origin)`);
  // The endpoints the dispatcher POSTs to: a listener's deliveries are claimed by its command line
  // (store/listeners.ts).
  const endpointsOf = db.prepare(
    "SELECT * FROM webhook_endpoints WHERE channel = ? AND origin != 'listener' ORDER BY created_at, id",
  );
  const allEndpoints = db.prepare("SELECT * FROM webhook_endpoints WHERE origin != 'listener'");
  const removeEndpoint = db.prepare('DELETE FROM webhook_endpoints WHERE channel = ? AND id = ?');
  const setSecret = db.prepare('UPDATE webhook_endpoints SET secret = ? WHERE channel = ? AND id = ?');
  const dropPending = db.prepare(
    "DELETE FROM deliveries WHERE endpoint_id = ? AND status = 'pending' AND id NOT IN (SELECT delivery_id FROM " +
      'delivery_attempts)',
  );
  const failPending = db.prepare(
    "UPDATE deliveries SET status = 'failed' WHERE endpoint_id = ? AND status = 'pending'",
  );
  // Due, neither leased (to any process) nor in flight, and the oldest pending delivery of its
  // resource to this endpoint (a redelivery after the delivery it repeats): one resource's events
  // go one at a time, in order, across every process, since a leased delivery stays pending.
  const due = db.prepare(`SELECT d.id, d.channel, d.outbox_id, d.attempts, d.first_due_at, o.payload, d.drill_follow_up
    FROM deliveries d JOIN outbox o ON o.id = d.outbox_id
    WHERE d.status = 'pending' AND d.endpoint_id = @endpoint AND d.due_at <= @now
      AND (d.lease_until IS NULL OR d.lease_until <= @wall)
      AND d.id NOT IN (SELECT value FROM json_each(@skip))
      AND NOT EXISTS (SELECT 1 FROM deliveries p WHERE p.status = 'pending' AND p.endpoint_id = d.endpoint_id
        AND p.resource = d.resource
        AND (p.outbox_id < d.outbox_id OR (p.outbox_id = d.outbox_id AND p.id < d.id)))
    ORDER BY d.outbox_id, d.id LIMIT @limit`);
  const lease = db
    .prepare(
      'UPDATE deliveries SET claimed_by = @owner, claim_seq = claim_seq + 1, lease_until = @until WHERE id = @id ' +
        'RETURNING claim_seq',
    )
    .pluck();
  // A report or a release ends the lease (NULL): the same report sent again is refused. The
  // lease's end in time alone takes nothing away while nobody claimed the delivery since.
  const held = "claimed_by = @owner AND claim_seq = @seq AND lease_until IS NOT NULL AND status = 'pending'";
  const succeedHeld = db.prepare(
    `UPDATE deliveries SET status = 'delivered', attempts = attempts + 1, lease_until = NULL
      WHERE id = @id AND ${held}`,
  );
  const retryHeld = db.prepare(
    `UPDATE deliveries SET attempts = attempts + 1, due_at = @dueAt, status = @status, lease_until = NULL
      WHERE id = @id AND ${held}`,
  );
  const releaseHeld = db.prepare(`UPDATE deliveries SET lease_until = NULL WHERE id = @id AND ${held}`);
  const heldNow = db.prepare(`SELECT claimed_by AS owner, claim_seq AS seq, endpoint_id, attempts, first_due_at,
      outbox_id FROM deliveries WHERE id = ? AND status = 'pending' AND lease_until > ?`);
  const pendingCount = db.prepare("SELECT COUNT(*) FROM deliveries WHERE status = 'pending'").pluck();
  const leasedCount = db
    .prepare("SELECT COUNT(*) FROM deliveries WHERE endpoint_id = ? AND status = 'pending' AND lease_until > ?")
    .pluck();
  const stillPending = db.prepare("SELECT 1 FROM deliveries WHERE id = ? AND status = 'pending'").pluck();
  const endpointById = db.prepare('SELECT * FROM webhook_endpoints WHERE id = ?');
  const cliEndpoint = db.prepare("SELECT * FROM webhook_endpoints WHERE channel = ? AND origin = 'cli'");
  const repoint = db.prepare('UPDATE webhook_endpoints SET url = @url, secret = @secret WHERE id = @id');
  const nextDue = db.prepare("SELECT MIN(due_at) FROM deliveries WHERE status = 'pending' AND endpoint_id = ?").pluck();
  const succeed = db.prepare(
    "UPDATE deliveries SET status = 'delivered', attempts = attempts + 1 WHERE id = ? AND status = 'pending'",
  );
  // The event is delivered when a delivery of the event is: the drill's event after it is another.
  const markOutbox = db.prepare(`UPDATE outbox SET delivered_at = @at WHERE id = @outbox
    AND EXISTS (SELECT 1 FROM deliveries WHERE id = @delivery AND drill_follow_up IS NULL)`);
  const retry = db.prepare(
    "UPDATE deliveries SET attempts = attempts + 1, due_at = ?, status = ? WHERE id = ? AND status = 'pending'",
  );
  const logAttempt =
    db.prepare(`INSERT INTO delivery_attempts (channel, delivery_id, attempted_at, status, latency_ms, response, error)
    VALUES (@channel, @delivery_id, @attempted_at, @status, @latency_ms, @response, @error)`);
  const dueAt = db.prepare("SELECT due_at FROM deliveries WHERE id = ? AND status = 'pending'").pluck();
  // An attempt of the drill's event after an event names that event (event_id), and its own type and delivery id.
  const attemptRows =
    `SELECT a.id, a.attempted_at, a.status, a.latency_ms, a.response, a.error, d.endpoint_id, ` +
    `d.attempts AS delivery_attempts,
      d.status AS delivery_status, o.id AS event_id, coalesce(d.drill_follow_up, o.delivery_id) AS webhook_delivery_id,
      CASE WHEN d.drill_follow_up IS NULL THEN o.event_type ELSE '${UNKNOWN_EVENT_TYPE}' END AS event_type, e.url
    FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id JOIN outbox o ON o.id = d.outbox_id LEFT
      JOIN webhook_endpoints e ON e.id = d.endpoint_id`;
  const attempts = db.prepare(
    `${attemptRows} WHERE a.channel = @channel AND a.id > @after ORDER BY a.id LIMIT @limit + 1`,
  );
  // On delivery_attempts_delivery.
  const lastAttempt = db.prepare(`${attemptRows} WHERE a.delivery_id = ? ORDER BY a.id DESC LIMIT 1`);
  return {
    addEndpoint(endpoint: WebhookEndpoint, origin: 'cli' | 'helper' = 'helper'): void {
      insertEndpoint.run({ ...endpoint, event_types: JSON.stringify(endpoint.event_types), origin });
    },
    /** The endpoint --webhook-url owns on the channel, if any. */
    cliEndpoint(channel: string): WebhookEndpoint | undefined {
      const row = cliEndpoint.get(channel) as EndpointRow | undefined;
      return row ? readEndpoint(row) : undefined;
    },
    /** Points an endpoint elsewhere: its pending deliveries go to the new URL, signed with the new secret. */
    repoint(id: string, url: string, secret: string): void {
      repoint.run({ id, url, secret });
    },
    /** Whether a delivery is still waiting (not removed by a reset or an endpoint's removal, not settled). */
    isPending: (id: number) => stillPending.get(id) !== undefined,
    /** The endpoint as it is now (one key lookup, for the dispatcher between attempts); undefined once removed. */
    endpoint(id: string): WebhookEndpoint | undefined {
      const row = endpointById.get(id) as EndpointRow | undefined;
      return row ? readEndpoint(row) : undefined;
    },
    /** The channel's endpoints, listeners aside. */
    endpoints: (channel: string) => (endpointsOf.all(channel) as EndpointRow[]).map(readEndpoint),
    /** Every channel's endpoints that the dispatcher POSTs to (listeners aside). */
    allEndpoints: () => (allEndpoints.all() as EndpointRow[]).map(readEndpoint),
    setSecret(channel: string, id: string, secret: string): void {
      setSecret.run(secret, channel, id);
    },
    /** Removes an endpoint; its pending deliveries end (failed, or gone if never tried). */
    removeEndpoint(channel: string, id: string): boolean {
      if (removeEndpoint.run(channel, id).changes === 0) return false;
      dropPending.run(id);
      failPending.run(id);
      return true;
    },
    /** The endpoint's due deliveries, oldest event first, but those in `skip` (in flight); each event as stored. */
    due: (endpointId: string, now: string, page: { skip: number[]; limit: number }) =>
      due.all({
        endpoint: endpointId,
        now,
        wall: Date.now(),
        skip: JSON.stringify(page.skip),
        limit: page.limit,
      }) as DueDelivery[],
    /**
     * Leases up to `limit` of the endpoint's due deliveries to `owner` for `leaseMs`, oldest event
     * first. BEGIN IMMEDIATE takes the file's write lock before the due ones are read, so that two
     * processes claiming at once take turns, and the second sees the first's leases.
     */
    claim: db.transaction(
      (endpointId: string, now: string, limit: number, owner: string, leaseMs: number): ClaimedDelivery[] => {
        const wall = Date.now();
        const rows = due.all({ endpoint: endpointId, now, wall, skip: '[]', limit }) as DueDelivery[];
        return rows.map((row) => ({
          ...row,
          claim: { owner, seq: lease.get({ id: row.id, owner, until: wall + leaseMs }) as number },
        }));
      },
    ).immediate,
    /** `delivered`, only if the claim still holds the delivery: whether the attempt was recorded. */
    deliveredByClaim: db.transaction(
      (claim: DeliveryClaim, attempt: AttemptRecord, outboxId: number, at: string): boolean => {
        if (succeedHeld.run({ id: attempt.delivery_id, ...claim }).changes === 0) return false;
        logAttempt.run(storable(attempt));
        markOutbox.run({ at, outbox: outboxId, delivery: attempt.delivery_id });
        return true;
      },
    ).immediate,
    /** `failed`, only if the claim still holds the delivery: whether the attempt was recorded. */
    failedByClaim: db.transaction((claim: DeliveryClaim, attempt: AttemptRecord, dueAt: string | null): boolean => {
      const status = dueAt === null ? 'failed' : 'pending';
      const settled = retryHeld.run({
        id: attempt.delivery_id,
        ...claim,
        dueAt: dueAt ?? LAST_STORED_TIME_TEXT,
        status,
      });
      if (settled.changes === 0) return false;
      logAttempt.run(storable(attempt));
      return true;
    }).immediate,
    /** Gives a claim back unsent: the delivery is due to any process at once. */
    release: (deliveryId: number, claim: DeliveryClaim) => releaseHeld.run({ id: deliveryId, ...claim }).changes > 0,
    /** The claim whose lease holds the delivery now, if any. */
    heldClaim(deliveryId: number): HeldDelivery | undefined {
      const row = heldNow.get(deliveryId, Date.now()) as (Omit<HeldDelivery, 'claim'> & DeliveryClaim) | undefined;
      if (!row) return undefined;
      const { owner, seq, ...delivery } = row;
      return { claim: { owner, seq }, ...delivery };
    },
    /** How many of the endpoint's deliveries are leased now. */
    leasedCount: (endpointId: string) => leasedCount.get(endpointId, Date.now()) as number,
    /** Every endpoint's deliveries not yet delivered nor failed (the outbox's depth), through the pending index. */
    pendingCount: () => pendingCount.get() as number,
    /** When the endpoint's next pending delivery is due (channel clock), if any. */
    nextDue: (endpointId: string) => nextDue.get(endpointId) as string | null,
    delivered(attempt: AttemptRecord, outboxId: number, at: string): void {
      logAttempt.run(storable(attempt));
      succeed.run(attempt.delivery_id);
      markOutbox.run({ at, outbox: outboxId, delivery: attempt.delivery_id });
    },
    /** A failed attempt: due again at `dueAt`, or failed for good when `dueAt` is null. */
    failed(attempt: AttemptRecord, dueAt: string | null): void {
      logAttempt.run(storable(attempt));
      // Failed for good: due after any time the clock reaches, as well as no longer pending.
      retry.run(dueAt ?? LAST_STORED_TIME_TEXT, dueAt === null ? 'failed' : 'pending', attempt.delivery_id);
    },
    /** The delivery's latest attempt in the log, if any. */
    lastAttempt(deliveryId: number): EventAttempt | undefined {
      const row = lastAttempt.get(deliveryId) as AttemptRow | undefined;
      return row && readAttempt(row);
    },
    /** When the delivery is due again (channel clock); null once it is no longer pending. */
    dueAt: (deliveryId: number) => (dueAt.get(deliveryId) as string | undefined) ?? null,
    attempts(channel: string, page: { after: number; limit: number }) {
      const rows = attempts.all({ channel, ...page }) as AttemptRow[];
      return { rows: rows.slice(0, page.limit).map(readAttempt), hasMore: rows.length > page.limit };
    },
  };
}
