// Hostile and careless requests for every implemented operation, generated from a fixed seed so
// that a failure replays: a valid request of the operation, then mutated (a field dropped, replaced
// by any JSON value, a huge string, an out-of-range number, deep nesting, an unknown field), random
// JSON and malformed text as bodies, odd content types, encoded and foreign path ids, junk queries.
import fc from 'fast-check';
import { sessionRequest } from './sandbox.js';

export interface FuzzRequest {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  headers: Record<string, string>;
  /** Sent as is; undefined sends no body. */
  body?: string;
  /** Whether the body is JSON text (Prism answers malformed JSON itself, without forwarding). */
  jsonBody: boolean;
}

/** Ids a run has created, so that fuzzed requests reach real states as well as missing ones. */
export interface FuzzIds {
  pending: string;
  authorized: string;
  captured: string;
  /** A second hold, for void: capture takes the first. */
  voidable: string;
  /** A session of another channel: it must never be found. */
  foreign: string;
}

const deep = (levels: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { x: value };
  return value;
};

const hostileValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(1e308, -1, 0, -0, 2 ** 53 + 1, 0.5, -(2 ** 63), '', ' ', '\u0000', 'null', '1e400', 'ca', 'a'.repeat(70_000)),
  fc.integer({ min: 65, max: 3000 }).map(deep),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);

type Mutation = (body: Record<string, unknown>) => Record<string, unknown>;
const mutation = (fields: string[]): fc.Arbitrary<Mutation> =>
  fc.oneof(
    fc.constantFrom(...fields).map((field) => (body: Record<string, unknown>) => Object.fromEntries(Object.entries(body).filter(([k]) => k !== field))),
    fc.tuple(fc.constantFrom(...fields), hostileValue).map(([field, value]) => (body: Record<string, unknown>) => ({ ...body, [field]: value })),
    fc.tuple(fc.string({ minLength: 1, maxLength: 12 }), hostileValue).map(([field, value]) => (body: Record<string, unknown>) => ({ ...body, [field]: value })),
    fc.constant((body: Record<string, unknown>) => body),
  );

const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  { weight: 1, arbitrary: fc.constantFrom('application/json; charset=utf-8', 'application/json; charset=latin1', 'text/plain', 'application/x-www-form-urlencoded', '', 'application/merge-patch+json') },
);

/** A body: a mutated valid body (most), any JSON value, or malformed text. */
const bodyOf = (valid: () => Record<string, unknown>): fc.Arbitrary<{ body?: string; jsonBody: boolean }> => {
  // A body without fields (cancel) is mutated by adding some.
  const fields = Object.keys(valid()).length > 0 ? Object.keys(valid()) : ['note'];
  return fc.oneof(
    { weight: 6, arbitrary: fc.array(mutation(fields), { minLength: 1, maxLength: 3 }).map((ms) => ({ body: JSON.stringify(ms.reduce((b, m) => m(b), valid())), jsonBody: true })) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => ({ body: JSON.stringify(v), jsonBody: true })) },
    { weight: 1, arbitrary: fc.string({ maxLength: 60 }).map((text) => ({ body: text, jsonBody: false })) },
    { weight: 1, arbitrary: fc.constant({ jsonBody: true }) },
  );
};

/** A path id: a real one of each state, another channel's, or junk (encoded, long, unicode). */
const idOf = (ids: FuzzIds, hold = ids.authorized) =>
  fc.oneof(
    fc.constantFrom(ids.pending, hold, ids.captured, ids.foreign),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map(encodeURIComponent),
    fc.constantFrom('%2e%2e', '..', 'x'.repeat(1200), '%00', '%ff', encodeURIComponent(ids.captured.toUpperCase())),
  );

const LIST_PARAMS = ['page', 'page_size', 'filter_pending', 'filter_voided', 'include_metadata', 'include_order_items', 'search', 'created_on_start', 'created_on_end', 'captured_on_start', 'captured_on_end', 'include_refunds', 'include_disputes', 'kind', 'status', 'summarize_refunds', 'include_service_fee', 'payment_token', 'junk'];
const queryValue = fc.oneof(
  fc.constantFrom(
    '1', '0', '-1', '30', '1001', '9007199254740993', 'true', 'false', 'maybe', 'captured,authorized', 'captured,,', ',', 'authorization',
    '2026-02-30T00:00:00Z', '2026-12-31T23:59:60Z', '2026-11-20T10:00:00+05:00', '0000-01-01T00:00:00Z', '9999-12-31T23:59:59-01:00',
    '0000-01-01T00:00:00+01:00', 'ab\u0000', '\u0000abc', '"jane"', 'jane*', 'NEAR(a b)', '',
  ),
  fc.string({ maxLength: 20 }),
);
const queryOf = fc.array(fc.tuple(fc.constantFrom(...LIST_PARAMS), queryValue), { maxLength: 5 })
  .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}` : ''));

const KEY = { 'x-service-api-key': 'sandbox-dev-key' };

function requests(operationId: string, ids: FuzzIds): fc.Arbitrary<FuzzRequest> {
  const post = (url: fc.Arbitrary<string>, valid: () => Record<string, unknown>) =>
    fc.tuple(url, bodyOf(valid), contentType).map(([u, { body, jsonBody }, type]): FuzzRequest => ({
      operationId, method: 'POST', url: u, headers: { ...KEY, ...(body !== undefined ? { 'content-type': type } : {}) },
      ...(body !== undefined ? { body } : {}), jsonBody: jsonBody && (type.startsWith('application/json') || body === undefined),
    }));
  const session = (suffix: string, hold?: string) => idOf(ids, hold).map((id) => `/payments/v1/payment_session/${id}${suffix}`);
  switch (operationId) {
    case 'createPaymentSession':
      return post(fc.constant('/payments/v1/create_payment_session'), () => sessionRequest({ idempotency_key: 'fuzz-key', kind: 'authorization' }));
    case 'capturePaymentSession':
      return post(session('/capture'), () => ({ total_amount: 100, idempotency_key: 'fuzz-capture' }));
    case 'voidPaymentSession':
      return post(session('/void', ids.voidable), () => ({ idempotency_key: 'fuzz-void' }));
    case 'cancelPaymentSession':
      return post(session('/cancel'), () => ({}));
    case 'createRefund':
      return post(fc.constant('/payments/v1/refund'), () => ({ payment_id: ids.captured, amount: 1, idempotency_key: 'fuzz-refund', reason: 'customer_request', item_details: null }));
    case 'retrievePaymentSession':
      return session('').map((url) => ({ operationId, method: 'GET', url, headers: KEY, jsonBody: true }));
    case 'listPaymentSessions':
      return queryOf.map((query) => ({ operationId, method: 'GET', url: `/payments/v1/payment_sessions${query}`, headers: KEY, jsonBody: true }));
    default:
      throw new Error(`No fuzz corpus for ${operationId}`);
  }
}

export const FUZZED_OPERATIONS = ['createPaymentSession', 'retrievePaymentSession', 'listPaymentSessions', 'capturePaymentSession', 'cancelPaymentSession', 'voidPaymentSession', 'createRefund'];

/** `perOperation` requests of every fuzzed operation, the same for the same seed. */
export function fuzzCorpus(ids: FuzzIds, perOperation: number, seed = 20261123): FuzzRequest[] {
  return FUZZED_OPERATIONS.flatMap((operationId, n) => fc.sample(requests(operationId, ids), { numRuns: perOperation, seed: seed + n }));
}
