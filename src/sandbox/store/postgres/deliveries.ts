// Webhook endpoints, the deliveries of outbox events to them and the log of every attempt, on
// PostgreSQL: the twin of store/deliveries.ts, plus the claims that let several sandbox processes
// share one queue. A process claims due deliveries under a lease (claim), so that the others skip
// them; its report (delivered, failed) counts only while the claim is still its own, so that a late
// report of a process whose lease ran out, the delivery claimed again since, changes nothing. A
// process killed mid-delivery loses nothing: once its lease ends, another claims the delivery and
// sends the same event, under the same webhook_delivery_id.
import { UNKNOWN_EVENT_TYPE } from '../../domain/evolution-drill.js';
import { LAST_STORED_TIME_TEXT } from '../../domain/stored-time.js';
import {
  type AttemptRecord,
  type ClaimedDelivery,
  type DeliveryClaim,
  type DueDelivery,
  type EventAttempt,
  type HeldDelivery,
  storedExcerpt,
  type WebhookEndpoint,
} from '../deliveries.js';
import type { DeliveriesRepository } from '../store.js';
import type { Async } from './async.js';
import { takeIds } from './autoincrement-migration.js';
import type { PgQueries } from './queries.js';

export type { ClaimedDelivery, DeliveryClaim };

/** The repository as the dispatchers of several processes use it (the store's, claims included). */
export type ClaimingDeliveries = Async<DeliveriesRepository>;

/** An attempt as the log query reads it: the response as stored. */
type AttemptRow = Omit<EventAttempt, 'response_excerpt'> & { response: string | null; [column: string]: unknown };

const readAttempt = ({ response, ...row }: AttemptRow): EventAttempt => ({
  ...row,
  response_excerpt: storedExcerpt(response),
});

interface EndpointRow extends Omit<WebhookEndpoint, 'event_types'> {
  event_types: string;
  [column: string]: unknown;
}

const readEndpoint = ({ id, channel, url, event_types, secret, mode, created_at }: EndpointRow): WebhookEndpoint => ({
  id,
  channel,
  url,
  event_types: JSON.parse(event_types) as string[],
  secret,
  mode,
  created_at,
});

// event_types is jsonb in the schema, read as its JSON text (a driver would parse jsonb its own way).
const ENDPOINT_COLUMNS = 'id, channel, url, event_types::text AS event_types, secret, mode, created_at';

// Times are ISO 8601 texts, compared as SQLite compares them: byte by byte, whatever the database's
// collation. Ids tie-break the same way.
const BY_CREATION = 'ORDER BY created_at COLLATE "C", id COLLATE "C"';

// A lease that holds: until its time on the database's wall clock, which every process shares.
const NOT_LEASED = '(d.lease_until IS NULL OR d.lease_until <= clock_timestamp())';

// Due ($2, the channel's clock), not leased to any process, and the oldest pending delivery of its
// resource to this endpoint (a redelivery after the delivery it repeats): one resource's events go
// one at a time, in order, across every process, since a leased delivery stays pending.
const DUE_WHERE = `d.status = 'pending' AND d.endpoint_id = $1 AND d.due_at COLLATE "C" <= $2 AND ${NOT_LEASED}
  AND NOT EXISTS (SELECT 1 FROM deliveries p WHERE p.status = 'pending' AND p.endpoint_id = d.endpoint_id
    AND p.resource = d.resource
    AND (p.outbox_id < d.outbox_id OR (p.outbox_id = d.outbox_id AND p.id < d.id)))`;

const DUE_COLUMNS = 'd.id, d.channel, d.outbox_id, d.attempts, d.first_due_at, o.payload, d.drill_follow_up';

// $3: the deliveries in flight in this process, as a JSON array (as SQLite's json_each reads it).
const DUE = `SELECT ${DUE_COLUMNS} FROM deliveries d JOIN outbox o ON o.id = d.outbox_id
  WHERE ${DUE_WHERE}
    AND d.id <> ALL (ARRAY(SELECT jsonb_array_elements_text($3::jsonb)::bigint))
  ORDER BY d.outbox_id, d.id LIMIT $4`;

// The due rows are locked as they are picked, and rows another claim holds locked are passed over
// (SKIP LOCKED): two processes claiming at once never wait for each other, nor take the same
// delivery. A row another claim leased and committed meanwhile is checked again on its new version
// (READ COMMITTED), whose lease now holds. ($3 limit, $4 owner, $5 lease in ms.)
const CLAIM = `WITH picked AS (
    SELECT d.id FROM deliveries d WHERE ${DUE_WHERE}
    ORDER BY d.outbox_id, d.id LIMIT $3 FOR UPDATE OF d SKIP LOCKED
  )
  UPDATE deliveries d SET claimed_by = $4, claim_seq = d.claim_seq + 1,
    lease_until = clock_timestamp() + $5::float8 * interval '1 millisecond'
  FROM picked, outbox o WHERE d.id = picked.id AND o.id = d.outbox_id
  RETURNING ${DUE_COLUMNS}, d.claim_seq`;

// A report counts only from the claim that holds the delivery now (its owner and claim_seq, the two
// parameters from `first`), and once: a report or a release ends the lease (NULL), so that the same
// report sent again, or one after the release, is refused. The lease's end in time alone takes
// nothing away: nobody claimed the delivery since.
const held = (first: number) => `claimed_by = $${first} AND claim_seq = $${first + 1} AND lease_until IS NOT NULL`;

// $1 the delivery; the lease ends with the attempt's outcome.
const SUCCEED = "UPDATE deliveries SET status = 'delivered', attempts = attempts + 1, lease_until = NULL";
const RETRY = 'UPDATE deliveries SET attempts = attempts + 1, due_at = $2, status = $3, lease_until = NULL';

// A report by claim is one statement: the delivery settled while the claim holds it, the attempt
// logged, and the event marked delivered, all or nothing, whether or not the caller runs it in a
// transaction (a dispatcher reports on its own). `pending` is the update, $1 the delivery, then its
// own parameters, the claim's two and the attempt's seven from `first`; `marking`, the event's
// delivery time and id after them, marks the event when the delivery is not the drill's follow-up.
const byClaim = (pending: string, first: number, marking: boolean) => `WITH settled AS (
    ${pending} AND ${held(first)} RETURNING id, drill_follow_up
  )${
    marking
      ? `, marked AS (UPDATE outbox SET delivered_at = $${first + 9} WHERE id = $${first + 10}
    AND EXISTS (SELECT 1 FROM settled WHERE drill_follow_up IS NULL))`
      : ''
  }
  , ${takeIds('delivery_attempts', '(SELECT count(*) FROM settled)')}
  INSERT INTO delivery_attempts (id, channel, delivery_id, attempted_at, status, latency_ms, response, error)
    SELECT base + 1, $${first + 2}::text, $${first + 3}::bigint, $${first + 4}::text, $${first + 5}::integer,
      $${first + 6}::integer, $${first + 7}::text, $${first + 8}::text FROM settled, ids`;

// An attempt of the drill's event after an event names that event (event_id), and its own type and delivery id.
const ATTEMPT_ROWS = `SELECT a.id, a.attempted_at, a.status, a.latency_ms, a.response, a.error, d.endpoint_id,
    d.attempts AS delivery_attempts, d.status AS delivery_status, o.id AS event_id,
    coalesce(d.drill_follow_up, o.delivery_id) AS webhook_delivery_id,
    CASE WHEN d.drill_follow_up IS NULL THEN o.event_type ELSE '${UNKNOWN_EVENT_TYPE}' END AS event_type, e.url
  FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id JOIN outbox o ON o.id = d.outbox_id
    LEFT JOIN webhook_endpoints e ON e.id = d.endpoint_id`;

const storable = (attempt: AttemptRecord) => [
  attempt.channel,
  attempt.delivery_id,
  attempt.attempted_at,
  attempt.status,
  attempt.latency_ms,
  attempt.response === null ? null : JSON.stringify(attempt.response),
  attempt.error,
];

const byClaimOrder = (a: DueDelivery, b: DueDelivery) => a.outbox_id - b.outbox_id || a.id - b.id;

export function deliveriesRepository(q: PgQueries): ClaimingDeliveries {
  const endpointRow = async (text: string, params: unknown[]) => {
    const row = await q.one<EndpointRow>(text, params);
    return row ? readEndpoint(row) : undefined;
  };
  // Ids are taken from the table's counter (autoincrement-migration.ts): given back if the write rolls back.
  const logAttempt = (attempt: AttemptRecord) =>
    q.run(
      `WITH ${takeIds('delivery_attempts', '1')}
      INSERT INTO delivery_attempts (id, channel, delivery_id, attempted_at, status, latency_ms, response, error)
        SELECT base + 1, $1::text, $2::bigint, $3::text, $4::integer, $5::integer, $6::text, $7::text FROM ids`,
      storable(attempt),
    );
  const whilePending = (update: string) => `${update} WHERE id = $1 AND status = 'pending'`;
  /**
   * Settles the delivery by `update` ($1 the delivery, then `params`) as SQLite does: while it is
   * pending, the attempt logged always, as SQLite logs it.
   */
  const settle = async (attempt: AttemptRecord, update: string, params: unknown[]) => {
    await logAttempt(attempt);
    await q.run(whilePending(update), [attempt.delivery_id, ...params]);
  };
  /**
   * Settles the delivery by `update` only while `claim` holds it, the attempt logged only when it
   * counted, and the event marked delivered (`marks`, its time and id) in the same statement.
   * Whether it counted.
   */
  const settleByClaim = async (
    attempt: AttemptRecord,
    update: string,
    params: unknown[],
    claim: DeliveryClaim,
    marks?: [at: string, outboxId: number],
  ) => {
    const statement = byClaim(whilePending(update), params.length + 2, marks !== undefined);
    const values = [attempt.delivery_id, ...params, claim.owner, claim.seq, ...storable(attempt), ...(marks ?? [])];
    return (await q.run(statement, values)) > 0;
  };
  // Failed for good: due after any time the clock reaches, as well as no longer pending.
  const retryParams = (dueAt: string | null) => [dueAt ?? LAST_STORED_TIME_TEXT, dueAt === null ? 'failed' : 'pending'];
  return {
    async addEndpoint(endpoint: WebhookEndpoint, origin: 'cli' | 'helper' = 'helper') {
      await q.run(
        `INSERT INTO webhook_endpoints (id, channel, url, event_types, secret, mode, created_at, origin)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          endpoint.id,
          endpoint.channel,
          endpoint.url,
          JSON.stringify(endpoint.event_types),
          endpoint.secret,
          endpoint.mode,
          endpoint.created_at,
          origin,
        ],
      );
    },
    /** The endpoint --webhook-url owns on the channel, if any. */
    cliEndpoint: (channel: string) =>
      endpointRow(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE channel = $1 AND origin = 'cli'`, [channel]),
    /** Points an endpoint elsewhere: its pending deliveries go to the new URL, signed with the new secret. */
    async repoint(id: string, url: string, secret: string) {
      await q.run('UPDATE webhook_endpoints SET url = $2, secret = $3 WHERE id = $1', [id, url, secret]);
    },
    /** Whether a delivery is still waiting (not removed by a reset or an endpoint's removal, not settled). */
    isPending: async (id: number) =>
      (await q.value("SELECT 1 FROM deliveries WHERE id = $1 AND status = 'pending'", [id])) !== undefined,
    /** The endpoint as it is now (one key lookup, for the dispatcher between attempts); undefined once removed. */
    endpoint: (id: string) => endpointRow(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1`, [id]),
    /** The channel's endpoints, listeners aside. */
    endpoints: async (channel: string) =>
      (
        await q.all<EndpointRow>(
          `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE channel = $1 AND origin != 'listener' ${BY_CREATION}`,
          [channel],
        )
      ).map(readEndpoint),
    /** Every channel's endpoints that the dispatcher POSTs to (listeners aside), in a stable order. */
    allEndpoints: async () =>
      (
        await q.all<EndpointRow>(
          `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE origin != 'listener' ORDER BY id COLLATE "C"`,
        )
      ).map(readEndpoint),
    async setSecret(channel: string, id: string, secret: string) {
      await q.run('UPDATE webhook_endpoints SET secret = $3 WHERE channel = $1 AND id = $2', [channel, id, secret]);
    },
    /** Removes an endpoint; its pending deliveries end (failed, or gone if never tried). */
    async removeEndpoint(channel: string, id: string) {
      if ((await q.run('DELETE FROM webhook_endpoints WHERE channel = $1 AND id = $2', [channel, id])) === 0)
        return false;
      // On delivery_attempts_delivery: a delivery never tried leaves no trace.
      await q.run(
        `DELETE FROM deliveries d WHERE endpoint_id = $1 AND status = 'pending'
          AND NOT EXISTS (SELECT 1 FROM delivery_attempts a WHERE a.delivery_id = d.id)`,
        [id],
      );
      await q.run("UPDATE deliveries SET status = 'failed' WHERE endpoint_id = $1 AND status = 'pending'", [id]);
      return true;
    },
    /** The endpoint's due deliveries, oldest event first, but those in `skip` (in flight) or leased; each as stored. */
    due: (endpointId: string, now: string, page: { skip: number[]; limit: number }) =>
      q.all<DueDelivery & { [column: string]: unknown }>(DUE, [endpointId, now, JSON.stringify(page.skip), page.limit]),
    async claim(endpointId: string, now: string, limit: number, owner: string, leaseMs: number) {
      type Claimed = DueDelivery & { claim_seq: number; [column: string]: unknown };
      const rows = await q.all<Claimed>(CLAIM, [endpointId, now, limit, owner, leaseMs]);
      // RETURNING keeps no order: the claim's, oldest event first.
      return rows.map(({ claim_seq: seq, ...delivery }) => ({ ...delivery, claim: { owner, seq } })).sort(byClaimOrder);
    },
    async release(deliveryId: number, claim: DeliveryClaim) {
      return (
        (await q.run(`UPDATE deliveries SET lease_until = NULL WHERE id = $1 AND status = 'pending' AND ${held(2)}`, [
          deliveryId,
          claim.owner,
          claim.seq,
        ])) > 0
      );
    },
    /** The claim whose lease holds the pending delivery now (the database's wall clock), if any. */
    async heldClaim(deliveryId: number): Promise<HeldDelivery | undefined> {
      const row = await q.one<Omit<HeldDelivery, 'claim'> & DeliveryClaim & { [column: string]: unknown }>(
        `SELECT claimed_by AS owner, claim_seq AS seq, endpoint_id, attempts, first_due_at, outbox_id FROM deliveries
          WHERE id = $1 AND status = 'pending' AND lease_until > clock_timestamp()`,
        [deliveryId],
      );
      if (!row) return undefined;
      const { owner, seq, endpoint_id, attempts, first_due_at, outbox_id } = row;
      return { claim: { owner, seq }, endpoint_id, attempts, first_due_at, outbox_id: Number(outbox_id) };
    },
    /** How many of the endpoint's pending deliveries are leased now. */
    /** Every endpoint's deliveries not yet delivered nor failed (the outbox's depth), through the pending index. */
    pendingCount: async () => Number(await q.value("SELECT COUNT(*) FROM deliveries WHERE status = 'pending'")),
    leasedCount: async (endpointId: string) =>
      Number(
        await q.value(
          `SELECT count(*) FROM deliveries WHERE endpoint_id = $1 AND status = 'pending'
            AND lease_until > clock_timestamp()`,
          [endpointId],
        ),
      ),
    /** When the endpoint's next pending delivery is due (channel clock), if any. */
    nextDue: async (endpointId: string) =>
      (await q.value<string | null>(
        `SELECT MIN(due_at COLLATE "C") FROM deliveries WHERE status = 'pending' AND endpoint_id = $1`,
        [endpointId],
      )) ?? null,
    async delivered(attempt: AttemptRecord, outboxId: number, at: string) {
      // Without a claim, the event is marked whatever the update found, as SQLite marks it.
      await settle(attempt, SUCCEED, []);
      // The event is delivered when a delivery of the event is: the drill's event after it is another.
      await q.run(
        `UPDATE outbox SET delivered_at = $1 WHERE id = $2
          AND EXISTS (SELECT 1 FROM deliveries WHERE id = $3 AND drill_follow_up IS NULL)`,
        [at, outboxId, attempt.delivery_id],
      );
    },
    /** A failed attempt: due again at `dueAt`, or failed for good when `dueAt` is null. */
    async failed(attempt: AttemptRecord, dueAt: string | null) {
      await settle(attempt, RETRY, retryParams(dueAt));
    },
    deliveredByClaim: (claim: DeliveryClaim, attempt: AttemptRecord, outboxId: number, at: string) =>
      settleByClaim(attempt, SUCCEED, [], claim, [at, outboxId]),
    failedByClaim: (claim: DeliveryClaim, attempt: AttemptRecord, dueAt: string | null) =>
      settleByClaim(attempt, RETRY, retryParams(dueAt), claim),
    /** The delivery's latest attempt in the log, if any. On delivery_attempts_delivery. */
    async lastAttempt(deliveryId: number) {
      const row = await q.one<AttemptRow>(`${ATTEMPT_ROWS} WHERE a.delivery_id = $1 ORDER BY a.id DESC LIMIT 1`, [
        deliveryId,
      ]);
      return row && readAttempt(row);
    },
    /** When the delivery is due again (channel clock); null once it is no longer pending. */
    dueAt: async (deliveryId: number) =>
      (await q.value<string>("SELECT due_at FROM deliveries WHERE id = $1 AND status = 'pending'", [deliveryId])) ??
      null,
    async attempts(channel: string, page: { after: number; limit: number }) {
      const rows = await q.all<AttemptRow>(
        `${ATTEMPT_ROWS} WHERE a.channel = $1 AND a.id > $2 ORDER BY a.id LIMIT $3::integer + 1`,
        [channel, page.after, page.limit],
      );
      return { rows: rows.slice(0, page.limit).map(readAttempt), hasMore: rows.length > page.limit };
    },
  };
}
