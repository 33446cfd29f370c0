// The requests of the differential test, as fast-check commands: every operation of the contract
// (generated/openapi.json) and every helper (generated/sandbox.json), each drawn with valid and
// invalid input, sent once, retried with the same Idempotency-Key and body, retried with the key
// and a changed body, or sent twice at once to the same backend. Each command sends its request to
// both sandboxes and expects the same normalised answers; what the answers name (sessions, tokens,
// disputes, listeners…) joins the model's pools, from which later commands draw their references.
//
// The Administration helpers go with each side's own admin key; a managed key's text and hint are
// masked, and its id symbolised, since each side makes them at random.
//
// Every operationId of both documents has a command (differential.test.ts checks it). Left out,
// each for its reason:
// - the hosted pages, the dashboard and the documents (not operations of either document): the
//   customer's checkout is reached through completeCheckout and the token's through
//   completeProvisionRequest, the same application operations;
// - a listener claim that waits (`wait` > 0): its answer depends on when a delivery arrives, which
//   is timing, not the store; claims are made with wait=0;
// - the dispatcher's sending: no dispatcher runs, so deliveries stay pending on both sides and
//   their listing compares what was queued (the sending is tests/postgres/sandboxes-webhooks' lane).
import fc from 'fast-check';
import { expect, vi } from 'vitest';
import { DEV_KEY, OTHER_KEY, sessionRequest } from '../../testkit/sandbox.js';
import type { Reply, Request, Side } from './differential-support.js';

export interface Model {
  sessions: string[];
  tokens: string[];
  provisions: string[];
  disputes: string[];
  endpoints: string[];
  listeners: string[];
  events: string[];
  claims: Array<{ delivery_id: string; claim_id: string; listener: string }>;
  skus: string[];
  /** The managed keys' ids, as symbols ({key#N}). */
  apiKeys: string[];
}

export const emptyModel = (): Model => ({
  sessions: [],
  tokens: [],
  provisions: [],
  disputes: [],
  endpoints: [],
  listeners: [],
  events: [],
  claims: [],
  skus: ['BPM-200', 'TH-10'],
  apiKeys: [],
});

export interface Real {
  sqlite: Side;
  postgres: Side;
  /** What was sent and answered so far, printed with a difference. */
  log: string[];
}

/** A managed key's id no store made. */
const UNKNOWN_KEY_ID = 'key_0000000000000000';
/** A uuid no sandbox minted: the unknown id of every lookup. */
const UNKNOWN_UUID = '11111111-1111-4111-8111-111111111111';
/** One of a pool, by an index drawn beforehand; `fallback` when the pool is empty. */
const pick = (pool: readonly string[], index: number, fallback: string) =>
  pool.length === 0 ? fallback : pool[index % pool.length]!;

/** How a request is sent: once, retried, retried with a changed body, or twice at once. */
export type Mode = 'once' | 'retry' | 'changed' | 'concurrent';

interface Operation {
  /** The operationId, or `tick` for the wall clock. */
  name: string;
  /** The request, built from the model as the command runs. */
  build(model: Model): Request;
  /** The same request with one field changed, for a retry under the same key (keyed writes only). */
  changed?: (request: Request) => Request;
  modes: readonly Mode[];
}

/** Collects the ids an answer names into the model's pools. */
export function harvest(model: Model, name: string, body: unknown): void {
  const add = (pool: string[], value: unknown) => {
    if (typeof value === 'string' && !pool.includes(value)) pool.push(value);
  };
  const walk = (value: unknown, parent?: Record<string, unknown>) => {
    if (Array.isArray(value)) for (const item of value) walk(item, parent);
    else if (value !== null && typeof value === 'object') {
      const object = value as Record<string, unknown>;
      for (const [key, field] of Object.entries(object)) {
        if (key === 'payment_session_id' || key === 'business_id') add(model.sessions, field);
        if (key === 'provision_token_request_id') add(model.provisions, field);
        if (key === 'dispute_id') add(model.disputes, field);
        walk(field, object);
      }
    } else if (typeof value === 'string') {
      if (value.startsWith('ptok_{')) add(model.tokens, value);
      if (value.startsWith('we_{')) add(model.endpoints, value);
      if (value.startsWith('wl_{')) add(model.listeners, value);
      if (value.startsWith('{key#')) add(model.apiKeys, value);
    }
  };
  walk(body);
  const object = (body ?? {}) as Record<string, any>;
  if (name === 'createPaymentSession') add(model.sessions, object.id);
  if (name === 'openDispute') add(model.disputes, object.id);
  if (name === 'listOutboxEvents') for (const event of object.events ?? []) add(model.events, event.id);
}

const EMAILS = ['Jane.Doe@example.com', 'jane.doe@EXAMPLE.com', 'john@shop.test'];
const KEYS = ['key-a', 'key-b', 'key-c'];
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
const query = (fields: Record<string, unknown>) => {
  const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
  return entries.length === 0 ? '' : `?${entries.map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join('&')}`;
};
const ref = fc.nat(50);
/** The helpers that move a dispute on, each by the last segment of its path. */
const DISPUTE_MOVES = { submitDisputeEvidence: 'evidence', escalateDispute: 'escalate', dropDispute: 'drop' } as const;
/** The channel a request is made on: mostly the development one, sometimes the other, which sees none of it. */
const CHANNEL_KEY = fc.constantFrom(DEV_KEY, DEV_KEY, DEV_KEY, OTHER_KEY);

/** Each operation's arbitrary, which draws its choices and returns the operation. */
const OPERATIONS: Array<fc.Arbitrary<Operation>> = [
  // ---- The contract: payment sessions.
  fc
    .record({
      kind: fc.constantFrom('one_time_payment', 'authorization'),
      key: maybe(fc.constantFrom(...KEYS)),
      email: fc.constantFrom(...EMAILS),
      total: fc.constantFrom(7799, 7799, 7799, 7799, 7799, 1),
      token: fc.option(ref, { nil: undefined, freq: 4 }),
      freeTrial: maybe(fc.boolean()),
      key2: CHANNEL_KEY,
    })
    .map((c) => ({
      name: 'createPaymentSession',
      modes: ['once', 'retry', 'changed', 'concurrent'] as const,
      build: (m) => ({
        method: 'POST' as const,
        url: '/payments/v1/create_payment_session',
        key: c.key2,
        body: sessionRequest({
          kind: c.kind,
          total_amount: c.total,
          customer_email: c.email,
          ...(c.key !== undefined ? { idempotency_key: c.key } : {}),
          ...(c.token !== undefined ? { payment_token: pick(m.tokens, c.token, 'ptok_unknown') } : {}),
          ...(c.freeTrial !== undefined ? { is_free_trial: c.freeTrial } : {}),
        }),
      }),
      changed: (r) => ({ ...r, body: { ...(r.body as object), customer_name: 'Someone Else' } }),
    })),
  fc.record({ i: ref, key: CHANNEL_KEY }).map((c) => ({
    name: 'retrievePaymentSession',
    modes: ['once'] as const,
    build: (m) => ({
      method: 'GET' as const,
      url: `/payments/v1/payment_session/${pick(m.sessions, c.i, UNKNOWN_UUID)}`,
      key: c.key,
    }),
  })),
  fc
    .record({
      page: maybe(fc.constantFrom(1, 1, 2, 3, 0)),
      page_size: maybe(fc.constantFrom(1, 2, 2, 5, 5, 0, 1001)),
      status: maybe(
        fc.constantFrom('pending', 'captured', 'captured', 'authorized', 'canceled', 'rejected', 'nonsense'),
      ),
      kind: maybe(fc.constantFrom('one_time_payment', 'authorization')),
      search: maybe(fc.constantFrom('jane', 'JOHN', 'doe', '%', 'zz')),
      filter_pending: maybe(fc.boolean()),
      include_order_items: maybe(fc.boolean()),
      include_refunds: maybe(fc.boolean()),
      include_disputes: maybe(fc.boolean()),
      include_metadata: maybe(fc.boolean()),
      summarize_refunds: maybe(fc.boolean()),
      key: CHANNEL_KEY,
    })
    .map((q) => ({
      name: 'listPaymentSessions',
      modes: ['once'] as const,
      build: () => {
        const { key, ...fields } = q;
        return { method: 'GET' as const, url: `/payments/v1/payment_sessions${query(fields)}`, key };
      },
    })),
  fc
    .record({ i: ref, amount: fc.constantFrom(7799, 5000, 99999, -1), key: maybe(fc.constantFrom(...KEYS)) })
    .map((c) => ({
      name: 'capturePaymentSession',
      modes: ['once', 'retry', 'changed', 'concurrent'] as const,
      build: (m) => ({
        method: 'POST' as const,
        url: `/payments/v1/payment_session/${pick(m.sessions, c.i, UNKNOWN_UUID)}/capture`,
        body: { total_amount: c.amount, ...(c.key !== undefined ? { idempotency_key: c.key } : {}) },
      }),
      changed: (r) => ({ ...r, body: { ...(r.body as object), total_amount: 100 } }),
    })),
  ref.map((i) => ({
    name: 'cancelPaymentSession',
    modes: ['once', 'retry', 'concurrent'] as const,
    build: (m) => ({
      method: 'POST' as const,
      url: `/payments/v1/payment_session/${pick(m.sessions, i, UNKNOWN_UUID)}/cancel`,
      body: {},
    }),
  })),
  fc.record({ i: ref, key: maybe(fc.constantFrom(...KEYS)) }).map((c) => ({
    name: 'voidPaymentSession',
    modes: ['once', 'retry', 'concurrent'] as const,
    build: (m) => ({
      method: 'POST' as const,
      url: `/payments/v1/payment_session/${pick(m.sessions, c.i, UNKNOWN_UUID)}/void`,
      body: c.key !== undefined ? { idempotency_key: c.key } : {},
    }),
  })),
  fc
    .record({
      i: ref,
      amount: fc.constantFrom(100, 1000, 1000, 7799, 0, 100000),
      key: fc.constantFrom(...KEYS),
      reason: fc.constantFrom('customer_request', 'duplicate_payment', 'fraudulent', 'because'),
    })
    .map((c) => ({
      name: 'createRefund',
      modes: ['once', 'retry', 'changed', 'concurrent'] as const,
      build: (m) => ({
        method: 'POST' as const,
        url: '/payments/v1/refund',
        body: {
          payment_id: pick(m.sessions, c.i, UNKNOWN_UUID),
          amount: c.amount,
          idempotency_key: c.key,
          reason: c.reason,
        },
      }),
      changed: (r) => ({ ...r, body: { ...(r.body as object), amount: 50 } }),
    })),
  // ---- Payment tokens and provisioning.
  fc
    .record({ key: maybe(fc.constantFrom(...KEYS)), email: fc.constantFrom(...EMAILS), bad: fc.boolean() })
    .map((c) => ({
      name: 'createPaymentToken',
      modes: ['once', 'retry', 'changed', 'concurrent'] as const,
      build: () => ({
        method: 'POST' as const,
        url: '/api/v1/payment_tokens/create',
        body: {
          success_url: c.bad ? 'not a url' : 'https://shop.example/ok',
          failure_url: 'https://shop.example/failed',
          customer_email: c.email,
          customer_name: 'Jane Doe',
          ...(c.key !== undefined ? { idempotency_key: c.key } : {}),
        },
      }),
      changed: (r) => ({ ...r, body: { ...(r.body as object), customer_name: 'Someone Else' } }),
    })),
  fc
    .record({
      page: maybe(fc.constantFrom(1, 1, 2, 3, 0)),
      page_size: maybe(fc.constantFrom(1, 2, 5, 0)),
      email: maybe(fc.constantFrom('jane', 'john@shop.test', 'x')),
      name: maybe(fc.constantFrom('Jane', 'doe', 'Q')),
    })
    .map((q) => ({
      name: 'listPaymentTokens',
      modes: ['once'] as const,
      build: () => ({ method: 'GET' as const, url: `/api/v1/payment_tokens${query(q)}` }),
    })),
  ref.map((i) => ({
    name: 'retrievePaymentToken',
    modes: ['once'] as const,
    build: (m) => ({ method: 'GET' as const, url: `/api/v1/payment_tokens/${pick(m.tokens, i, 'ptok_unknown')}` }),
  })),
  fc.record({ i: ref, card: fc.boolean() }).map((c) => ({
    name: 'updatePaymentToken',
    modes: ['once', 'concurrent'] as const,
    build: (m) => ({
      method: 'POST' as const,
      url: `/api/v1/payment_tokens/${pick(m.tokens, c.i, 'ptok_unknown')}/update`,
      body: c.card ? { update_card_info: true } : { order_items: sessionRequest().order_items },
    }),
  })),
  ref.map((i) => ({
    name: 'deletePaymentToken',
    modes: ['once', 'concurrent'] as const,
    build: (m) => ({
      method: 'POST' as const,
      url: `/api/v1/payment_tokens/${pick(m.tokens, i, 'ptok_unknown')}/delete`,
      body: {},
    }),
  })),
  ref.map((i) => ({
    name: 'retrieveProvisionTokenRequest',
    modes: ['once'] as const,
    build: (m) => ({
      method: 'GET' as const,
      url: `/api/v1/payment_tokens/provision_request/${pick(m.provisions, i, UNKNOWN_UUID)}`,
    }),
  })),
  ref.map((i) => ({
    name: 'retrieveProvisionRequestEligibility',
    modes: ['once'] as const,
    build: (m) => ({
      method: 'GET' as const,
      url: `/api/v1/eligibility/provision_request/${pick(m.provisions, i, UNKNOWN_UUID)}`,
    }),
  })),
  // ---- The catalog.
  fc
    .record({
      page: maybe(fc.constantFrom(1, 2, 0)),
      page_size: maybe(fc.constantFrom(1, 2, 10)),
      eligibility: maybe(fc.constantFrom('eligible', 'ineligible', 'eligible_with_lmn')),
      updated_after: maybe(fc.constantFrom('2020-01-01T00:00:00Z', '2100-01-01T00:00:00Z', 'yesterday')),
    })
    .map((q) => ({
      name: 'listCatalogItems',
      modes: ['once'] as const,
      build: () => ({ method: 'GET' as const, url: `/api/v1/product_catalog/items/list${query(q)}` }),
    })),
  fc.constantFrom('BPM-200', 'NEW-1', 'NEW-2', '').map((sku) => ({
    name: 'createCatalogItem',
    modes: ['once', 'concurrent'] as const,
    build: (m) => {
      if (sku !== '' && !m.skus.includes(sku)) m.skus.push(sku);
      return {
        method: 'POST' as const,
        url: '/api/v1/product_catalog/items/create',
        body: { sku, name: `Item ${sku}` },
      };
    },
  })),
  fc.record({ i: ref, name: fc.constantFrom('Renamed', 'Other name') }).map((c) => ({
    name: 'updateCatalogItem',
    modes: ['once', 'concurrent'] as const,
    build: (m) => ({
      method: 'POST' as const,
      url: '/api/v1/product_catalog/items/update',
      body: {
        sku: pick(m.skus, c.i, 'NONE'),
        name: c.name,
        description: 'A thing',
        image_urls: ['https://img.example/1.png'],
        url: 'https://shop.example/item',
      },
    }),
  })),
  ref.map((i) => ({
    name: 'retrieveCatalogItem',
    modes: ['once'] as const,
    build: (m) => ({
      method: 'POST' as const,
      url: '/api/v1/product_catalog/items/detail',
      body: { sku: pick([...m.skus, 'MISSING'], i, 'MISSING') },
    }),
  })),
  fc.constantFrom<unknown>({}, { skus: ['BPM-200'] }, [1]).map((body) => ({
    name: 'retrieveCheckoutMethod',
    modes: ['once'] as const,
    build: () => ({ method: 'POST' as const, url: '/api/v1/product_catalog/service_checkout_method', body }),
  })),
  // ---- Disputes, as the contract reads them.
  ref.map((i) => ({
    name: 'retrieveDispute',
    modes: ['once'] as const,
    build: (m) => ({ method: 'GET' as const, url: `/api/v1/disputes/${pick(m.disputes, i, UNKNOWN_UUID)}` }),
  })),
  fc.constant({
    name: 'listDisputes',
    modes: ['once'] as const,
    build: () => ({ method: 'GET' as const, url: '/v1/disputes' }),
  }),
  ref.map((i) => ({
    name: 'retrieveDisputeRecord',
    modes: ['once'] as const,
    build: (m) => ({ method: 'GET' as const, url: `/v1/disputes/${pick(m.disputes, i, UNKNOWN_UUID)}` }),
  })),
  ref.map((i) => ({
    name: 'acceptDispute',
    modes: ['once', 'retry', 'concurrent'] as const,
    build: (m) => ({
      method: 'POST' as const,
      url: `/v1/disputes/${pick(m.disputes, i, UNKNOWN_UUID)}/accept`,
      body: {},
    }),
  })),
  // ---- Helpers: the customer, the review and the session's inspection.
  ref.map((i) => ({
    name: 'inspectPaymentSession',
    modes: ['once'] as const,
    build: (m) => ({
      method: 'GET' as const,
      url: `/sandbox/v1/payment_sessions/${pick(m.sessions, i, UNKNOWN_UUID)}`,
    }),
  })),
  fc.record({ i: ref, eligible: maybe(fc.boolean()) }).map((c) => ({
    name: 'completeCheckout',
    modes: ['once', 'concurrent'] as const,
    build: (m) => ({
      method: 'POST' as const,
      url: `/sandbox/v1/payment_sessions/${pick(m.sessions, c.i, UNKNOWN_UUID)}/complete_checkout`,
      body: c.eligible === undefined ? {} : { eligible: c.eligible },
    }),
  })),
  fc.record({ i: ref, decision: fc.constantFrom('accept', 'decline', 'maybe') }).map((c) => ({
    name: 'reviewPaymentSession',
    modes: ['once', 'concurrent'] as const,
    build: (m) => ({
      method: 'POST' as const,
      url: `/sandbox/v1/payment_sessions/${pick(m.sessions, c.i, UNKNOWN_UUID)}/review`,
      body: { decision: c.decision },
    }),
  })),
  fc.record({ i: ref, after: maybe(fc.constantFrom(0, 1, 3)), limit: maybe(fc.constantFrom(1, 2, 100)) }).map((c) => ({
    name: 'listSessionTimeline',
    modes: ['once'] as const,
    build: (m) => ({
      method: 'GET' as const,
      url: `/sandbox/v1/payment_sessions/${pick(m.sessions, c.i, UNKNOWN_UUID)}/timeline${query({ after: c.after, limit: c.limit })}`,
    }),
  })),
  // ---- Helpers: disputes.
  fc
    .record({
      i: ref,
      amount: maybe(fc.constantFrom(100, 7799, 10 ** 9)),
      kind: maybe(fc.constantFrom('chargeback', 'inquiry')),
      closed: maybe(fc.boolean()),
    })
    .map((c) => ({
      name: 'openDispute',
      modes: ['once', 'concurrent'] as const,
      build: (m) => ({
        method: 'POST' as const,
        url: `/sandbox/v1/payment_sessions/${pick(m.sessions, c.i, UNKNOWN_UUID)}/disputes`,
        body: {
          ...(c.amount !== undefined ? { amount: c.amount } : {}),
          ...(c.kind !== undefined ? { kind: c.kind } : {}),
          ...(c.closed !== undefined ? { already_closed: c.closed } : {}),
        },
      }),
    })),
  fc.record({ i: ref, outcome: fc.constantFrom('won', 'lost', 'accepted', 'expired') }).map((c) => ({
    name: 'resolveDispute',
    modes: ['once', 'concurrent'] as const,
    build: (m) => ({
      method: 'POST' as const,
      url: `/sandbox/v1/disputes/${pick(m.disputes, c.i, UNKNOWN_UUID)}/resolve`,
      body: { outcome: c.outcome },
    }),
  })),
  fc
    .record({
      i: ref,
      body: fc.constantFrom<unknown>(
        { state: 'under_review' },
        { state: 'won' },
        { phase: 'dispute' },
        { state: 'closed', phase: 'inquiry' },
        {},
      ),
    })
    .map((c) => ({
      name: 'syncDispute',
      modes: ['once', 'concurrent'] as const,
      build: (m) => ({
        method: 'POST' as const,
        url: `/sandbox/v1/disputes/${pick(m.disputes, c.i, UNKNOWN_UUID)}/sync`,
        body: c.body,
      }),
    })),
  ...(Object.keys(DISPUTE_MOVES) as Array<keyof typeof DISPUTE_MOVES>).map((name) =>
    ref.map((i) => ({
      name,
      modes: ['once', 'concurrent'] as const,
      build: (m: Model) => ({
        method: 'POST' as const,
        url: `/sandbox/v1/disputes/${pick(m.disputes, i, UNKNOWN_UUID)}/${DISPUTE_MOVES[name]}`,
        body: {},
      }),
    })),
  ),
  // ---- Helpers: webhook endpoints, deliveries, the outbox and listeners.
  fc
    .record({
      types: maybe(fc.constantFrom(['*'], ['payment_session_complete'], ['dispute.*'], ['nonsense.event'])),
      mode: maybe(fc.constantFrom('signed', 'legacy')),
      secret: maybe(fc.constantFrom('whsec_fixedsecretfixedsecret00', 'short')),
      url: fc.constantFrom('https://hooks.example/a', 'https://hooks.example/b', 'ftp://hooks.example/'),
    })
    .map((c) => ({
      name: 'createWebhookEndpoint',
      modes: ['once', 'concurrent'] as const,
      build: () => ({
        method: 'POST' as const,
        url: '/sandbox/v1/webhook_endpoints',
        body: {
          url: c.url,
          ...(c.types ? { event_types: c.types } : {}),
          ...(c.mode ? { mode: c.mode } : {}),
          ...(c.secret ? { secret: c.secret } : {}),
        },
      }),
    })),
  fc.constant({
    name: 'listWebhookEndpoints',
    modes: ['once'] as const,
    build: () => ({ method: 'GET' as const, url: '/sandbox/v1/webhook_endpoints' }),
  }),
  ref.map((i) => ({
    name: 'deleteWebhookEndpoint',
    modes: ['once', 'concurrent'] as const,
    build: (m) => ({
      method: 'DELETE' as const,
      url: `/sandbox/v1/webhook_endpoints/${pick(m.endpoints, i, 'we_unknown')}`,
    }),
  })),
  fc.record({ after: maybe(fc.constantFrom(0, 2)), limit: maybe(fc.constantFrom(1, 3, 100)) }).map((q) => ({
    name: 'listWebhookDeliveries',
    modes: ['once'] as const,
    build: () => ({ method: 'GET' as const, url: `/sandbox/v1/webhook_deliveries${query(q)}` }),
  })),
  fc
    .record({
      event_type: maybe(fc.constantFrom('payment_session_complete', 'dispute.created', 'none')),
      after: maybe(fc.constantFrom(0, 1, 4)),
      limit: maybe(fc.constantFrom(1, 2, 1000, 0)),
    })
    .map((q) => ({
      name: 'listOutboxEvents',
      modes: ['once'] as const,
      build: () => ({ method: 'GET' as const, url: `/sandbox/v1/outbox${query(q)}` }),
    })),
  ref.map((i) => ({
    name: 'redeliverEvent',
    modes: ['once', 'concurrent'] as const,
    build: (m) => ({
      method: 'POST' as const,
      url: `/sandbox/v1/outbox/${pick(m.events, i, '999999')}/redeliver`,
      body: {},
    }),
  })),
  fc.record({ before: maybe(fc.constantFrom(1, 5, 100)), limit: maybe(fc.constantFrom(1, 3, 50)) }).map((q) => ({
    name: 'listWebhookEvents',
    modes: ['once'] as const,
    build: () => ({ method: 'GET' as const, url: `/sandbox/v1/webhook_events${query(q)}` }),
  })),
  fc
    .record({
      url: fc.constantFrom('http://127.0.0.1:3000/hooks', 'http://localhost:3001/w', 'not a url'),
      types: maybe(fc.constantFrom(['*'], ['payment_session_complete'])),
    })
    .map((c) => ({
      name: 'createWebhookListener',
      modes: ['once', 'concurrent'] as const,
      build: () => ({
        method: 'POST' as const,
        url: '/sandbox/v1/webhook_listeners',
        body: { forward_url: c.url, ...(c.types ? { event_types: c.types } : {}) },
      }),
    })),
  fc.constant({
    name: 'listWebhookListeners',
    modes: ['once'] as const,
    build: () => ({ method: 'GET' as const, url: '/sandbox/v1/webhook_listeners' }),
  }),
  ref.map((i) => ({
    name: 'deleteWebhookListener',
    modes: ['once', 'concurrent'] as const,
    build: (m) => ({
      method: 'DELETE' as const,
      url: `/sandbox/v1/webhook_listeners/${pick(m.listeners, i, 'wl_unknown')}`,
    }),
  })),
  fc.record({ i: ref, limit: maybe(fc.constantFrom(1, 2, 8, 9)) }).map((c) => ({
    name: 'receiveListenerDeliveries',
    modes: ['once'] as const,
    build: (m) => ({
      method: 'GET' as const,
      url: `/sandbox/v1/webhook_listeners/${pick(m.listeners, c.i, 'wl_unknown')}/deliveries${query({ wait: 0, limit: c.limit })}`,
    }),
  })),
  fc
    .record({ i: ref, status: fc.constantFrom<number | null>(204, 204, 200, 500, null), forged: fc.boolean() })
    .map((c) => ({
      name: 'createListenerAttempt',
      modes: ['once', 'retry', 'concurrent'] as const,
      build: (m) => {
        const claim = m.claims.length === 0 ? undefined : m.claims[c.i % m.claims.length]!;
        return {
          method: 'POST' as const,
          url: `/sandbox/v1/webhook_listeners/${claim?.listener ?? pick(m.listeners, c.i, 'wl_unknown')}/attempts`,
          body: {
            delivery_id: claim?.delivery_id ?? '999999',
            claim_id: c.forged || claim === undefined ? 'lc_forged' : claim.claim_id,
            status: c.status,
            latency_ms: 12,
            ...(c.status === null ? { error: 'connection refused' } : {}),
          },
        };
      },
    })),
  // ---- Helpers: the clock, features, faults, the drill, reset and the revision.
  fc.constant({
    name: 'retrieveClock',
    modes: ['once'] as const,
    build: () => ({ method: 'GET' as const, url: '/sandbox/v1/clock' }),
  }),
  fc.constantFrom(60, 86_400, 8 * 86_400, -5, 0).map((seconds) => ({
    name: 'advanceClock',
    modes: ['once', 'concurrent'] as const,
    build: () => ({ method: 'POST' as const, url: '/sandbox/v1/clock/advance', body: { seconds } }),
  })),
  fc.constant({
    name: 'retrieveFeatures',
    modes: ['once'] as const,
    build: () => ({ method: 'GET' as const, url: '/sandbox/v1/features' }),
  }),
  fc.record({ authorization: maybe(fc.boolean()), tokenization: maybe(fc.boolean()) }).map((body) => ({
    name: 'updateFeatures',
    modes: ['once', 'concurrent'] as const,
    build: () => ({ method: 'PUT' as const, url: '/sandbox/v1/features', body: JSON.parse(JSON.stringify(body)) }),
  })),
  fc
    .record({
      operation_id: fc.constantFrom('capturePaymentSession', 'createPaymentSession', 'listPaymentSessions', 'nope'),
      status: fc.constantFrom(400, 500, 501),
      count: maybe(fc.integer({ min: 1, max: 2 })),
    })
    .map((body) => ({
      name: 'createFault',
      modes: ['once'] as const,
      build: () => ({ method: 'POST' as const, url: '/sandbox/v1/faults', body: JSON.parse(JSON.stringify(body)) }),
    })),
  fc.constant({
    name: 'retrieveEvolutionDrill',
    modes: ['once'] as const,
    build: () => ({ method: 'GET' as const, url: '/sandbox/v1/evolution_drill' }),
  }),
  fc
    .record({
      enabled: maybe(fc.boolean()),
      service_fee: maybe(fc.constantFrom<number | string>('number', 'string', 3)),
    })
    .map((body) => ({
      name: 'updateEvolutionDrill',
      modes: ['once'] as const,
      build: () => ({
        method: 'PUT' as const,
        url: '/sandbox/v1/evolution_drill',
        body: JSON.parse(JSON.stringify(body)),
      }),
    })),
  fc.constant({
    name: 'resetChannel',
    modes: ['once', 'concurrent'] as const,
    build: () => ({ method: 'POST' as const, url: '/sandbox/v1/reset', body: {} }),
  }),
  fc.constant({
    name: 'retrieveRevision',
    modes: ['once'] as const,
    build: () => ({ method: 'GET' as const, url: '/sandbox/v1/revision' }),
  }),
  // ---- Helpers: tokens, provisioning, letters and the catalog.
  fc.record({ i: ref, action: fc.constantFrom('UpdatePaymentMethod', 'TakeHealthSurvey', null) }).map((c) => ({
    name: 'requireTokenAction',
    modes: ['once', 'concurrent'] as const,
    build: (m) => ({
      method: 'POST' as const,
      url: `/sandbox/v1/payment_tokens/${pick(m.tokens, c.i, 'ptok_unknown')}/require_action`,
      body: { next_action: c.action },
    }),
  })),
  ref.map((i) => ({
    name: 'retrieveTokenEligibility',
    modes: ['once'] as const,
    build: (m) => ({
      method: 'GET' as const,
      url: `/sandbox/v1/payment_tokens/${pick(m.tokens, i, 'ptok_unknown')}/eligibility`,
    }),
  })),
  ref.map((i) => ({
    name: 'inspectProvisionRequest',
    modes: ['once'] as const,
    build: (m) => ({
      method: 'GET' as const,
      url: `/sandbox/v1/provision_requests/${pick(m.provisions, i, UNKNOWN_UUID)}`,
    }),
  })),
  fc
    .record({
      i: ref,
      body: fc.constantFrom<unknown>(
        {},
        { eligible: false },
        { cancel: true },
        { letter: 'pending' },
        { letter: 'approved', lmn_expires_at: '2030-01-01T00:00:00Z' },
        { skus: ['BPM-200'] },
      ),
    })
    .map((c) => ({
      name: 'completeProvisionRequest',
      modes: ['once', 'concurrent'] as const,
      build: (m) => ({
        method: 'POST' as const,
        url: `/sandbox/v1/provision_requests/${pick(m.provisions, c.i, UNKNOWN_UUID)}/complete`,
        body: c.body,
      }),
    })),
  fc.record({ i: ref, decision: fc.constantFrom('approve', 'reject') }).map((c) => ({
    name: 'decideLetter',
    modes: ['once', 'concurrent'] as const,
    build: (m) => ({
      method: 'POST' as const,
      url: `/sandbox/v1/provision_requests/${pick(m.provisions, c.i, UNKNOWN_UUID)}/letter`,
      body: { decision: c.decision },
    }),
  })),
  fc
    .constantFrom<unknown[]>([], [{ sku: 'BPM-200', name: 'Monitor' }], [{ sku: 'R-1' }, { sku: 'R-2', name: 'Two' }])
    .map((items) => ({
      name: 'replaceCatalog',
      modes: ['once', 'concurrent'] as const,
      build: (m: Model) => {
        for (const item of items as Array<{ sku: string }>) if (!m.skus.includes(item.sku)) m.skus.push(item.sku);
        return { method: 'PUT' as const, url: '/sandbox/v1/catalog', body: { items } };
      },
    })),
  fc.record({ i: ref, eligibility: fc.constantFrom('eligible', 'eligible_with_lmn', 'ineligible') }).map((c) => ({
    name: 'reviewCatalogItem',
    modes: ['once', 'concurrent'] as const,
    build: (m) => ({
      method: 'POST' as const,
      url: '/sandbox/v1/catalog/items/review',
      body: { sku: pick(m.skus, c.i, 'NONE'), eligibility: c.eligibility },
    }),
  })),
  // ---- Invalid input that no operation takes: no key, an unknown route, malformed JSON is below.
  fc
    .constantFrom<Request>(
      { method: 'GET', url: '/payments/v1/payment_sessions', key: null },
      { method: 'GET', url: '/payments/v1/payment_sessions', key: 'sandbox-unknown-key' },
      { method: 'GET', url: '/payments/v1/nowhere' },
      { method: 'DELETE', url: '/payments/v1/create_payment_session' },
    )
    .map((request) => ({ name: 'refused', modes: ['once'] as const, build: () => request })),
  // ---- Administration: the managed API keys, through each side's admin key. Sent once: two
  // concurrent makes or rotations could answer in either order, and each side names its new keys
  // in the order it sees them.
  fc
    .record({
      channel: fc.constantFrom('partner-a', 'partner-a', 'partner-b', null, 'two words', ''),
      extra: fc.constantFrom(false, false, false, true),
    })
    .map((c) => ({
      name: 'createApiKey',
      modes: ['once'] as const,
      build: () => ({
        method: 'POST' as const,
        url: '/sandbox/v1/admin/api_keys',
        body: c.extra ? { channel: c.channel, role: 'admin' } : { channel: c.channel },
        admin: true,
      }),
    })),
  fc
    .record({
      channel: maybe(fc.constantFrom('partner-a', 'partner-b', 'nobody')),
      admin: maybe(fc.boolean()),
      limit: maybe(fc.integer({ min: 0, max: 3 })),
    })
    .map((c) => ({
      name: 'listApiKeys',
      modes: ['once'] as const,
      build: () => ({
        method: 'GET' as const,
        url: `/sandbox/v1/admin/api_keys${query({ channel: c.channel, admin: c.admin, limit: c.limit })}`,
        admin: true,
      }),
    })),
  fc.record({ i: ref, overlap: maybe(fc.constantFrom(0, 60, 86_400, 2_592_001, -1)) }).map((c) => ({
    name: 'rotateApiKey',
    modes: ['once'] as const,
    build: (m) => ({
      method: 'POST' as const,
      url: `/sandbox/v1/admin/api_keys/${pick(m.apiKeys, c.i, UNKNOWN_KEY_ID)}/rotate`,
      ...(c.overlap !== undefined ? { body: { overlap_seconds: c.overlap } } : {}),
      admin: true,
    }),
  })),
  ref.map((i) => ({
    name: 'revokeApiKey',
    modes: ['once'] as const,
    build: (m) => ({
      method: 'POST' as const,
      url: `/sandbox/v1/admin/api_keys/${pick(m.apiKeys, i, UNKNOWN_KEY_ID)}/revoke`,
      admin: true,
    }),
  })),
];

/** The name an operation's arbitrary gives every operation it draws. */
const nameOf = (operation: fc.Arbitrary<Operation>) => fc.sample(operation, { numRuns: 1, seed: 0 })[0]!.name;

/** The operations the commands send, by operationId (`refused` is the invalid input of no operation). */
export const COVERED = OPERATIONS.map((operation) => nameOf(operation));

/**
 * Two replies of one side, in an order that does not depend on which finished first: by what they
 * say, ids and random secrets aside, then by the ids they were given, in the order they were minted. Two identical
 * requests at once may mint their ids in either order on either backend; what is compared is then
 * that the first minted is listed first on both, as lists order by id after time.
 */
async function both(side: Side, request: Request): Promise<Reply[]> {
  const replies = await Promise.all([side.send(request), side.send(request)]);
  // Random secrets and signatures out first: their digits may look like a minted id.
  const text = (reply: Reply) =>
    `${reply.status} ${JSON.stringify(reply.body)}`.replace(/\bv\d+=[0-9a-f]{64}\b|whsec_[A-Za-z0-9_-]+/g, '');
  const blind = (reply: Reply) => text(reply).replace(/0d1f[0-9a-f-]+/g, '');
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const minted = (reply: Reply) => (text(reply).match(/0d1f[0-9a-f-]+/g) ?? []).join(' ');
  return replies.sort((a, b) => order(blind(a), blind(b)) || order(minted(a), minted(b)));
}

/** The replies of one side to the command's requests, normalised in the order they were sent. */
async function replies(side: Side, mode: Mode, request: Request, changed: Request | undefined): Promise<unknown[]> {
  let raw: Reply[];
  if (mode === 'concurrent') raw = await both(side, request);
  else if (mode === 'retry') raw = [await side.send(request), await side.send(request)];
  else if (mode === 'changed') raw = [await side.send(request), await side.send(changed ?? request)];
  else raw = [await side.send(request)];
  return raw.map((reply) => {
    const body = side.normalise(reply.body) as any;
    if (request.url === '/sandbox/v1/revision' && typeof body?.revision === 'string')
      body.revision = side.opaque(body.revision);
    return { status: reply.status, body };
  });
}

class SendCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly operation: Operation,
    readonly mode: Mode,
  ) {}

  check = () => true;

  async run(model: Model, real: Real): Promise<void> {
    const request = this.operation.build(model);
    const changed = this.operation.changed?.(request);
    const [sqlite, postgres] = await Promise.all([
      replies(real.sqlite, this.mode, request, changed),
      replies(real.postgres, this.mode, request, changed),
    ]);
    real.log.push(`${this.toString()} ${request.method} ${request.url} → ${JSON.stringify(sqlite).slice(0, 300)}`);
    expect(postgres, `${this.toString()}\n${request.method} ${request.url} ${JSON.stringify(request.body)}`).toEqual(
      sqlite,
    );
    for (const reply of sqlite as Reply[]) {
      harvest(model, this.operation.name, reply.body);
      if (this.operation.name === 'receiveListenerDeliveries' && reply.status === 200)
        for (const delivery of (reply.body as any).deliveries ?? [])
          model.claims.push({
            delivery_id: delivery.delivery_id,
            claim_id: delivery.claim_id,
            listener: request.url.split('/')[4]!,
          });
    }
  }

  toString(): string {
    return `${this.operation.name}(${this.mode})`;
  }
}

/**
 * Real time moves on between requests, the same on both sides (Date is faked, never read apart), by
 * at most 250 ms a tick: a claim's lease is timed by Date on SQLite but by PostgreSQL's own clock
 * (clock_timestamp()), which no fake reaches, so a run stays well inside the 30 s lease on both.
 */
class TickCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly ms: number) {}
  check = () => true;
  async run(): Promise<void> {
    vi.setSystemTime(Date.now() + this.ms);
  }
  toString(): string {
    return `tick(${this.ms})`;
  }
}

/**
 * How often a command is drawn, against 3 for the others: the ones that make what later commands act
 * on (a session, its checkout and review, a dispute, a token, an endpoint, a claim), so that a
 * sequence reaches deep states rather than mostly asking for unknown ids.
 */
const WEIGHTS: Record<string, number> = {
  createPaymentSession: 18,
  completeCheckout: 12,
  reviewPaymentSession: 9,
  capturePaymentSession: 9,
  createRefund: 9,
  openDispute: 9,
  createPaymentToken: 9,
  completeProvisionRequest: 6,
  createWebhookEndpoint: 6,
  createWebhookListener: 6,
  receiveListenerDeliveries: 9,
  createListenerAttempt: 6,
  listOutboxEvents: 6,
  listPaymentSessions: 6,
  createApiKey: 6,
  rotateApiKey: 6,
  // Rarely: each turns a feature off, and a channel without authorizations reaches fewer states.
  updateFeatures: 1,
  resetChannel: 1,
};

const last = (pool: readonly string[], fallback: string) => pool.at(-1) ?? fallback;

/**
 * The paths to a deep state, each step a request of its own, compared as any other: a captured
 * session (create, the customer's checkout, the review accepted), an authorization's hold, its
 * dispute, and a token provisioned by the customer. Drawn alone, each step would mostly meet an id
 * that is not in the right state.
 */
const FLOWS: Array<{ name: string; steps: Operation[] }> = [
  { name: 'capturedSession', steps: ['one_time_payment', 'accept'] },
  { name: 'declinedSession', steps: ['one_time_payment', 'decline'] },
  { name: 'authorizedSession', steps: ['authorization'] },
].map(({ name, steps: [kind, decision] }) => ({
  name,
  steps: [
    {
      name: 'createPaymentSession',
      modes: ['once'],
      build: () => ({ method: 'POST', url: '/payments/v1/create_payment_session', body: sessionRequest({ kind }) }),
    },
    {
      name: 'completeCheckout',
      modes: ['once'],
      build: (m) => ({
        method: 'POST',
        url: `/sandbox/v1/payment_sessions/${last(m.sessions, UNKNOWN_UUID)}/complete_checkout`,
        body: { eligible: true },
      }),
    },
    ...(decision === undefined
      ? []
      : [
          {
            name: 'reviewPaymentSession',
            modes: ['once'],
            build: (m: Model) => ({
              method: 'POST' as const,
              url: `/sandbox/v1/payment_sessions/${last(m.sessions, UNKNOWN_UUID)}/review`,
              body: { decision },
            }),
          } satisfies Operation,
        ]),
  ],
}));
FLOWS.push(
  {
    name: 'disputedSession',
    steps: [
      ...FLOWS[0]!.steps,
      {
        name: 'openDispute',
        modes: ['once'],
        build: (m) => ({
          method: 'POST',
          url: `/sandbox/v1/payment_sessions/${last(m.sessions, UNKNOWN_UUID)}/disputes`,
          body: { amount: 1000 },
        }),
      },
    ],
  },
  {
    name: 'provisionedToken',
    steps: [
      {
        name: 'createPaymentToken',
        modes: ['once'],
        build: () => ({
          method: 'POST',
          url: '/api/v1/payment_tokens/create',
          body: { success_url: 'https://shop.example/ok', failure_url: 'https://shop.example/failed' },
        }),
      },
      {
        name: 'completeProvisionRequest',
        modes: ['once'],
        build: (m) => ({
          method: 'POST',
          url: `/sandbox/v1/provision_requests/${last(m.provisions, UNKNOWN_UUID)}/complete`,
          body: {},
        }),
      },
    ],
  },
);

const byLast = (name: string, url: (m: Model) => string, body?: unknown, method: Request['method'] = 'POST') =>
  ({ name, modes: ['once'], build: (m: Model) => ({ method, url: url(m), body }) }) satisfies Operation;
const lastSession = (m: Model) => last(m.sessions, UNKNOWN_UUID);
FLOWS.push(
  {
    name: 'capturedHold',
    steps: [
      ...FLOWS[2]!.steps,
      byLast('capturePaymentSession', (m) => `/payments/v1/payment_session/${lastSession(m)}/capture`, {
        total_amount: 5000,
        idempotency_key: 'key-a',
      }),
    ],
  },
  {
    name: 'refundedSession',
    steps: [...FLOWS[0]!.steps, byLast('createRefund', () => '/payments/v1/refund', undefined)].map((step) =>
      step.name === 'createRefund'
        ? {
            ...step,
            build: (m: Model) => ({
              method: 'POST' as const,
              url: '/payments/v1/refund',
              body: { payment_id: lastSession(m), amount: 1000, idempotency_key: 'key-b', reason: 'customer_request' },
            }),
          }
        : step,
    ),
  },
  {
    name: 'listenedDelivery',
    steps: [
      byLast('createWebhookListener', () => '/sandbox/v1/webhook_listeners', {
        forward_url: 'http://127.0.0.1:3000/hooks',
      }),
      ...FLOWS[0]!.steps,
      byLast(
        'receiveListenerDeliveries',
        (m) => `/sandbox/v1/webhook_listeners/${last(m.listeners, 'wl_unknown')}/deliveries?wait=0&limit=8`,
        undefined,
        'GET',
      ),
    ],
  },
);

class FlowCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly flow: { name: string; steps: Operation[] }) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    for (const step of this.flow.steps) await new SendCommand(step, 'once').run(model, real);
  }
  toString(): string {
    return this.flow.name;
  }
}

/** Every command, each operation with each of its modes, and the wall clock's tick. */
export const commandArbitraries: Array<fc.Arbitrary<fc.AsyncCommand<Model, Real>>> = [
  fc.oneof(
    ...OPERATIONS.map((operation) => ({
      weight: WEIGHTS[nameOf(operation)] ?? 3,
      arbitrary: operation.chain((op) => fc.constantFrom(...op.modes).map((mode) => new SendCommand(op, mode))),
    })),
    { weight: 9, arbitrary: fc.integer({ min: 1, max: 250 }).map((ms) => new TickCommand(ms)) },
    ...FLOWS.map((flow) => ({ weight: 9, arbitrary: fc.constant(new FlowCommand(flow)) })),
  ),
];
