// Hostile and careless requests for every operation, generated from a seed so that a failure
// replays: a valid request of the operation, then mutated by what its own schema forbids (a
// required field dropped, a wrong type, an out-of-range number, a bad format, a value outside an
// enum, an unknown field; testkit/schema-invalid.ts) or by hand-written hostility (any JSON
// value, a huge string, deep nesting); random JSON and malformed text as bodies, odd content
// types, encoded and foreign path ids, junk and schema-invalid queries, and the wrong method.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { repoRoot } from './contract.js';
import { forbiddenQueryValues, schemaMutations, type JsonSchema } from './schema-invalid.js';
import { sessionRequest } from './sandbox.js';

export interface FuzzRequest {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  url: string;
  headers: Record<string, string>;
  /** Sent as is; undefined sends no body. */
  body?: string;
  /** Whether the body is JSON text (Prism answers malformed JSON itself, without forwarding). */
  jsonBody: boolean;
  /** Sent with a method the operation's path does not take (Prism answers those itself too). */
  wrongMethod?: true;
}

interface DocumentOperation {
  method: string;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  parameters?: Array<{ name: string; in: string; schema?: JsonSchema }>;
}

/** The contract with every reference followed, read once: the schemas the mutations come from. */
const operationsById = (() => {
  const doc = JSON.parse(readFileSync(path.join(repoRoot, 'generated', 'openapi.dereferenced.json'), 'utf8')) as {
    paths: Record<string, Record<string, DocumentOperation & { operationId?: string }>>;
  };
  const found = new Map<string, DocumentOperation>();
  for (const item of Object.values(doc.paths)) {
    for (const [method, operation] of Object.entries(item))
      if (operation.operationId) found.set(operation.operationId, { ...operation, method });
  }
  return found;
})();

const documentOperation = (operationId: string): DocumentOperation => {
  const found = operationsById.get(operationId);
  if (!found) throw new Error(`No operation ${operationId} in the contract`);
  return found;
};

/** Ids a run has created, so that fuzzed requests reach real states as well as missing ones. */
export interface FuzzIds {
  pending: string;
  authorized: string;
  captured: string;
  /** A second hold, for void: capture takes the first. */
  voidable: string;
  /** A session of another channel: it must never be found. */
  foreign: string;
  /** An active payment token, one that delete may take, and another channel's. */
  token: string;
  deletableToken: string;
  foreignToken: string;
  /** A provision token request with a pending letter, and another channel's. */
  provisionRequest: string;
  foreignProvisionRequest: string;
  /** An open dispute (on a session of its own, so that refunds stay possible), and another channel's. */
  dispute: string;
  foreignDispute: string;
}

/** Sends a POST with a JSON body as the given key's channel, answering the parsed body. */
export type FuzzPost = (path: string, body: unknown, key?: string) => Promise<Record<string, any>>;

const FOREIGN_KEY = 'sandbox-other-key';

/** The states the corpus reaches, made through the API itself, in process or over HTTP. */
export async function seedFuzzState(post: FuzzPost): Promise<FuzzIds> {
  const session = async (overrides: Record<string, unknown> = {}, key?: string) =>
    (await post('/payments/v1/create_payment_session', sessionRequest(overrides), key)).id as string;
  const complete = (id: string) => post(`/sandbox/v1/payment_sessions/${id}/complete_checkout`, {});
  const captured = await session();
  await complete(captured);
  await post(`/sandbox/v1/payment_sessions/${captured}/review`, { decision: 'accept' });
  const [authorized, voidable] = [await session({ kind: 'authorization' }), await session({ kind: 'authorization' })];
  for (const id of [authorized, voidable]) await complete(id);
  const setup = async (email: string, answers: Record<string, unknown>, key?: string) => {
    const { provision_token_request_id: id } = await post(
      '/api/v1/payment_tokens/create',
      { success_url: 'https://shop.example/ok', failure_url: 'https://shop.example/ko', customer_email: email },
      key,
    );
    return {
      id: id as string,
      token: (await post(`/sandbox/v1/provision_requests/${id}/complete`, answers, key)).payment_token as string,
    };
  };
  const approved = { letter: 'approved', skus: ['MSG-GUN-1'] };
  const disputed = async (key?: string) => {
    const id = await session({}, key);
    await post(`/sandbox/v1/payment_sessions/${id}/complete_checkout`, {}, key);
    await post(`/sandbox/v1/payment_sessions/${id}/review`, { decision: 'accept' }, key);
    return (await post(`/sandbox/v1/payment_sessions/${id}/disputes`, { amount: 100 }, key)).dispute_id as string;
  };
  return {
    pending: await session(),
    authorized,
    voidable,
    captured,
    foreign: await session({}, FOREIGN_KEY),
    token: (await setup('fuzz-a@example.com', approved)).token,
    deletableToken: (await setup('fuzz-b@example.com', approved)).token,
    foreignToken: (await setup('fuzz-c@example.com', approved, FOREIGN_KEY)).token,
    provisionRequest: (await setup('fuzz-d@example.com', { letter: 'pending' })).id,
    foreignProvisionRequest: (await setup('fuzz-e@example.com', {}, FOREIGN_KEY)).id,
    dispute: await disputed(),
    foreignDispute: await disputed(FOREIGN_KEY),
  };
}

const deep = (levels: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { x: value };
  return value;
};

const hostileValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    1e308,
    -1,
    0,
    -0,
    2 ** 53 + 1,
    0.5,
    -(2 ** 63),
    '',
    ' ',
    '\u0000',
    'null',
    '1e400',
    'ca',
    'a'.repeat(70_000),
  ),
  fc.integer({ min: 65, max: 3000 }).map(deep),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);

type Mutation = (body: Record<string, unknown>) => Record<string, unknown>;
const mutation = (fields: string[]): fc.Arbitrary<Mutation> =>
  fc.oneof(
    fc
      .constantFrom(...fields)
      .map(
        (field) => (body: Record<string, unknown>) =>
          Object.fromEntries(Object.entries(body).filter(([k]) => k !== field)),
      ),
    fc.tuple(fc.constantFrom(...fields), hostileValue).map(([field, value]) => (body: Record<string, unknown>) => ({
      ...body,
      [field]: value,
    })),
    fc
      .tuple(fc.string({ minLength: 1, maxLength: 12 }), hostileValue)
      .map(([field, value]) => (body: Record<string, unknown>) => ({ ...body, [field]: value })),
    fc.constant((body: Record<string, unknown>) => body),
  );

const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'application/json; charset=latin1',
      'text/plain',
      'application/x-www-form-urlencoded',
      '',
      'application/merge-patch+json',
    ),
  },
);

/**
 * A body: a valid body mutated by what the operation's schema forbids or by hand-written hostility
 * (most), any JSON value, or malformed text.
 */
const bodyOf = (
  operationId: string,
  valid: () => Record<string, unknown>,
): fc.Arbitrary<{ body?: string; jsonBody: boolean }> => {
  // A body without fields (cancel) is mutated by adding some.
  const fields = Object.keys(valid()).length > 0 ? Object.keys(valid()) : ['note'];
  const schema = documentOperation(operationId).requestBody?.content?.['application/json']?.schema;
  const forbidden = schema && schemaMutations(schema);
  const mutated = (ms: Array<(body: Record<string, unknown>) => Record<string, unknown>>) => ({
    body: JSON.stringify(ms.reduce((b, m) => m(b), valid())),
    jsonBody: true,
  });
  const handWritten = fc.array(mutation(fields), { minLength: 1, maxLength: 3 });
  return fc.oneof(
    {
      weight: 6,
      arbitrary: (forbidden
        ? fc.oneof(fc.array(forbidden, { minLength: 1, maxLength: 2 }), handWritten)
        : handWritten
      ).map(mutated),
    },
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

const LIST_PARAMS = [
  'page',
  'page_size',
  'filter_pending',
  'filter_voided',
  'include_metadata',
  'include_order_items',
  'search',
  'created_on_start',
  'created_on_end',
  'captured_on_start',
  'captured_on_end',
  'include_refunds',
  'include_disputes',
  'kind',
  'status',
  'summarize_refunds',
  'include_service_fee',
  'payment_token',
  'junk',
];
const queryValue = fc.oneof(
  fc.constantFrom(
    '1',
    '0',
    '-1',
    '30',
    '1001',
    '9007199254740993',
    'true',
    'false',
    'maybe',
    'captured,authorized',
    'captured,,',
    ',',
    'authorization',
    '2026-02-30T00:00:00Z',
    '2026-12-31T23:59:60Z',
    '2026-11-20T10:00:00+05:00',
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:59:59-01:00',
    '0000-01-01T00:00:00+01:00',
    'ab\u0000',
    '\u0000abc',
    '"jane"',
    'jane*',
    'NEAR(a b)',
    '',
  ),
  fc.string({ maxLength: 20 }),
);
const queryFor = (params: string[], values: fc.Arbitrary<string>) =>
  fc
    .array(fc.tuple(fc.constantFrom(...params), values), { maxLength: 5 })
    .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}` : ''));
const queryOf = queryFor(LIST_PARAMS, queryValue);
const tokenQueryOf = queryFor(
  ['page', 'page_size', 'email', 'name', 'card_expires_before', 'lmn_expires_before', 'junk'],
  fc.oneof(
    queryValue,
    fc.constantFrom(
      '2026-11',
      '2026-13',
      '9999-12',
      '0000-01',
      '2026-02-29',
      '2028-02-29',
      'fuzz',
      'FUZZ-A@',
      'a"b',
      'email : x',
      '*',
      '%',
    ),
  ),
);
const catalogQueryOf = queryFor(
  ['page', 'page_size', 'eligibility', 'updated_after', 'junk'],
  fc.oneof(
    queryValue,
    fc.constantFrom('eligible', 'eligible_with_lmn', 'ineligible', 'not_eligible', 'null', 'ELIGIBLE'),
  ),
);

/** A query of one to three parameters of the operation, each with a value its schema forbids. */
const schemaQueryOf = (operationId: string) => {
  const parameters = (documentOperation(operationId).parameters ?? []).filter((p) => p.in === 'query' && p.schema);
  return fc
    .array(
      fc
        .constantFrom(...parameters)
        .chain((p) => fc.constantFrom(...forbiddenQueryValues(p.schema!)).map((value) => [p.name, value] as const)),
      { minLength: 1, maxLength: 3 },
    )
    .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}`);
};
/** A list's query: hand-written junk, or values the document forbids (when it declares any). */
const listQueryOf = (operationId: string, handWritten: fc.Arbitrary<string>) =>
  (documentOperation(operationId).parameters ?? []).some((p) => p.in === 'query')
    ? fc.oneof(handWritten, schemaQueryOf(operationId))
    : handWritten;

const disputeQueryOf = queryFor(
  ['limit', 'cursor', 'junk'],
  fc.oneof(queryValue, fc.constantFrom('dc_1', 'dc_999999999999999', 'dc_9999999999999999', 'dc_-1', '100', '101')),
);

/** A path segment: one of these real ids, or junk. */
const segmentOf = (real: string[]) =>
  fc.oneof(
    fc.constantFrom(...real),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map(encodeURIComponent),
    fc.constantFrom(
      '%2e%2e',
      'x'.repeat(1200),
      '%00',
      '%ff',
      '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      encodeURIComponent(real[0]!.toUpperCase()),
    ),
  );
const noCharges = { total_additional_charges: 0, total_discounts: 0 };

const KEY = { 'x-service-api-key': 'sandbox-dev-key' };

function requestsOf(operationId: string, ids: FuzzIds): fc.Arbitrary<FuzzRequest> {
  const post = (url: fc.Arbitrary<string>, valid: () => Record<string, unknown>) =>
    fc.tuple(url, bodyOf(operationId, valid), contentType).map(
      ([u, { body, jsonBody }, type]): FuzzRequest => ({
        operationId,
        method: 'POST',
        url: u,
        headers: { ...KEY, ...(body !== undefined ? { 'content-type': type } : {}) },
        ...(body !== undefined ? { body } : {}),
        jsonBody: jsonBody && (type.startsWith('application/json') || body === undefined),
      }),
    );
  const get = (url: fc.Arbitrary<string>) =>
    url.map((u): FuzzRequest => ({ operationId, method: 'GET', url: u, headers: KEY, jsonBody: true }));
  const session = (suffix: string, hold?: string) =>
    idOf(ids, hold).map((id) => `/payments/v1/payment_session/${id}${suffix}`);
  const token = (suffix: string, own: string) =>
    segmentOf([own, ids.foreignToken]).map((id) => `/api/v1/payment_tokens/${id}${suffix}`);
  const dispute = (prefix: string, suffix: string) =>
    segmentOf([ids.dispute, ids.foreignDispute]).map((id) => `${prefix}${id}${suffix}`);
  const provision = (prefix: string) =>
    segmentOf([ids.provisionRequest, ids.foreignProvisionRequest]).map((id) => `${prefix}${id}`);
  switch (operationId) {
    case 'createPaymentSession':
      return post(fc.constant('/payments/v1/create_payment_session'), () =>
        sessionRequest({ idempotency_key: 'fuzz-key', kind: 'authorization' }),
      );
    case 'capturePaymentSession':
      return post(session('/capture'), () => ({ total_amount: 100, idempotency_key: 'fuzz-capture' }));
    case 'voidPaymentSession':
      return post(session('/void', ids.voidable), () => ({ idempotency_key: 'fuzz-void' }));
    case 'cancelPaymentSession':
      return post(session('/cancel'), () => ({}));
    case 'createRefund':
      return post(fc.constant('/payments/v1/refund'), () => ({
        payment_id: ids.captured,
        amount: 1,
        idempotency_key: 'fuzz-refund',
        reason: 'customer_request',
        item_details: null,
      }));
    case 'retrievePaymentSession':
      return get(session(''));
    case 'listPaymentSessions':
      return get(listQueryOf(operationId, queryOf).map((query) => `/payments/v1/payment_sessions${query}`));
    case 'createPaymentToken':
      return post(fc.constant('/api/v1/payment_tokens/create'), () => ({
        success_url: 'https://shop.example/ok',
        failure_url: 'https://shop.example/ko',
        customer_email: 'fuzz-new@example.com',
        customer_state: 'CA',
        metadata: '{}',
        idempotency_key: 'fuzz-token',
      }));
    case 'retrievePaymentToken':
      return get(token('', ids.token));
    case 'listPaymentTokens':
      return get(listQueryOf(operationId, tokenQueryOf).map((query) => `/api/v1/payment_tokens${query}`));
    case 'updatePaymentToken':
      return post(token('/update', ids.token), () => ({
        update_card_info: false,
        order_items: [{ name: 'Vitamin D3', sku: 'VITD-2000', quantity: 1, price: 1500, amount_details: noCharges }],
      }));
    case 'deletePaymentToken':
      return post(token('/delete', ids.deletableToken), () => ({}));
    case 'retrieveProvisionTokenRequest':
      return get(provision('/api/v1/payment_tokens/provision_request/'));
    case 'retrieveProvisionRequestEligibility':
      return get(provision('/api/v1/eligibility/provision_request/'));
    case 'listCatalogItems':
      return get(listQueryOf(operationId, catalogQueryOf).map((query) => `/api/v1/product_catalog/items/list${query}`));
    case 'createCatalogItem':
      return post(fc.constant('/api/v1/product_catalog/items/create'), () => ({
        sku: 'FUZZ-1',
        name: 'Fuzz',
        description: 'Fuzzed',
        gtin: '00012345678905',
        image_urls: [],
      }));
    case 'updateCatalogItem':
      return post(fc.constant('/api/v1/product_catalog/items/update'), () => ({
        sku: 'TH-10',
        name: 'Thermometer',
        description: 'Fuzzed',
        image_urls: [],
        url: 'https://shop.example/th-10',
        gtin: null,
      }));
    case 'retrieveCatalogItem':
      return post(fc.constant('/api/v1/product_catalog/items/detail'), () => ({ sku: 'BPM-200' }));
    case 'retrieveDispute':
      return get(dispute('/api/v1/disputes/', ''));
    case 'retrieveDisputeRecord':
      return get(dispute('/v1/disputes/', ''));
    case 'listDisputes':
      return get(listQueryOf(operationId, disputeQueryOf).map((query) => `/v1/disputes${query}`));
    case 'acceptDispute':
      return post(dispute('/v1/disputes/', '/accept'), () => ({}));
    case 'retrieveCheckoutMethod':
      return post(fc.constant('/api/v1/product_catalog/service_checkout_method'), () => ({}));
    default:
      throw new Error(`No fuzz corpus for ${operationId}`);
  }
}

const OTHER_METHODS: Record<string, Array<FuzzRequest['method']>> = {
  get: ['POST', 'PUT', 'DELETE'],
  post: ['GET', 'PUT', 'DELETE', 'PATCH'],
};

/**
 * The operation's requests, and now and then one sent with a method its path does not take (405),
 * or without its key, or with a key no channel has (401).
 */
function requests(operationId: string, ids: FuzzIds): fc.Arbitrary<FuzzRequest> {
  const own = requestsOf(operationId, ids);
  const badKey = fc
    .tuple(own, fc.constantFrom(undefined, 'not-a-key', '', 'SANDBOX-DEV-KEY'))
    .map(([request, key]): FuzzRequest => {
      const { 'x-service-api-key': _key, ...headers } = request.headers;
      return { ...request, headers: key === undefined ? headers : { ...headers, 'x-service-api-key': key } };
    });
  const wrongMethod = fc
    .tuple(own, fc.constantFrom(...OTHER_METHODS[documentOperation(operationId).method]!))
    .map(([request, method]): FuzzRequest => {
      const { body: _body, ...rest } = request;
      const withBody = method !== 'GET' && method !== 'DELETE' && request.body !== undefined;
      return { ...rest, method, wrongMethod: true, ...(withBody ? { body: request.body } : { headers: { ...KEY } }) };
    });
  return fc.oneof(
    { weight: 18, arbitrary: own },
    { weight: 1, arbitrary: wrongMethod },
    { weight: 1, arbitrary: badKey },
  );
}

export const FUZZED_OPERATIONS = [
  'createPaymentSession',
  'retrievePaymentSession',
  'listPaymentSessions',
  'capturePaymentSession',
  'cancelPaymentSession',
  'voidPaymentSession',
  'createRefund',
  'createPaymentToken',
  'retrievePaymentToken',
  'listPaymentTokens',
  'updatePaymentToken',
  'deletePaymentToken',
  'retrieveProvisionTokenRequest',
  'retrieveProvisionRequestEligibility',
  'listCatalogItems',
  'createCatalogItem',
  'updateCatalogItem',
  'retrieveCatalogItem',
  'retrieveCheckoutMethod',
  'retrieveDispute',
  'retrieveDisputeRecord',
  'listDisputes',
  'acceptDispute',
];

/** `perOperation` requests of every fuzzed operation, the same for the same seed. */
export function fuzzCorpus(ids: FuzzIds, perOperation: number, seed = 20261123): FuzzRequest[] {
  return FUZZED_OPERATIONS.flatMap((operationId, n) =>
    fc.sample(requests(operationId, ids), { numRuns: perOperation, seed: seed + n }),
  );
}
