// The sandbox's own test-helper API (openapi/sandbox.yaml, bundled to generated/sandbox.json): a
// separate document under the contract's rules. Every helper is declared with its method, path,
// statuses and named schemas; every example validates (ajv, JSON Schema 2020-12); the contract's
// schemas it reuses stay exactly the contract's; the Spectral overrides for it are narrow; and
// generated/sandbox.* are fresh.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_FILE, SchemaValidators } from '../../src/sandbox/http/document.js';
import {
  contract,
  loadDocument,
  mediaSites,
  operations,
  repoRoot,
  resolve,
  type MediaType,
} from '../../testkit/contract.js';

const sandbox = loadDocument(SANDBOX_FILE);
const sandboxOperations = operations(sandbox);
const validators = new SchemaValidators(sandbox as never);

function violations(schema: { $ref?: string } | undefined, value: unknown): string[] {
  if (!schema?.$ref) throw new Error('Expected a named schema ($ref)');
  const validate = validators.at(schema.$ref);
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
}

const COMMON = ['401', '403', '404', '405', '431', '500', '501'];
const ref = (name: string) => `#/components/schemas/${name}`;

// operationId, method, path, request body schema (or null), 200 schema, whether it declares 400.
const HELPERS: Array<[string, string, string, string | null, string, boolean]> = [
  [
    'completeCheckout',
    'post',
    '/sandbox/v1/payment_sessions/{payment_session_id}/complete_checkout',
    'CompleteCheckoutRequest',
    'CheckoutOutcome',
    true,
  ],
  [
    'reviewPaymentSession',
    'post',
    '/sandbox/v1/payment_sessions/{payment_session_id}/review',
    'ReviewRequest',
    'ReviewOutcome',
    true,
  ],
  [
    'inspectPaymentSession',
    'get',
    '/sandbox/v1/payment_sessions/{payment_session_id}',
    null,
    'SandboxPaymentSession',
    false,
  ],
  ['retrieveClock', 'get', '/sandbox/v1/clock', null, 'SandboxClock', false],
  ['advanceClock', 'post', '/sandbox/v1/clock/advance', 'AdvanceClockRequest', 'SandboxClock', true],
  [
    'openDispute',
    'post',
    '/sandbox/v1/payment_sessions/{payment_session_id}/disputes',
    'OpenDisputeRequest',
    'Dispute',
    true,
  ],
  ['resolveDispute', 'post', '/sandbox/v1/disputes/{dispute_id}/resolve', 'ResolveDisputeRequest', 'Dispute', true],
  ['listOutboxEvents', 'get', '/sandbox/v1/outbox', null, 'OutboxEventList', true],
  ['retrieveFeatures', 'get', '/sandbox/v1/features', null, 'ChannelFeatures', false],
  ['updateFeatures', 'put', '/sandbox/v1/features', 'UpdateFeaturesRequest', 'ChannelFeatures', true],
  ['retrieveEvolutionDrill', 'get', '/sandbox/v1/evolution_drill', null, 'EvolutionDrill', false],
  ['updateEvolutionDrill', 'put', '/sandbox/v1/evolution_drill', 'UpdateEvolutionDrillRequest', 'EvolutionDrill', true],
  ['createFault', 'post', '/sandbox/v1/faults', 'FaultRequest', 'Fault', true],
  [
    'requireTokenAction',
    'post',
    '/sandbox/v1/payment_tokens/{payment_token}/require_action',
    'RequireTokenActionRequest',
    'TokenActionState',
    true,
  ],
  ['resetChannel', 'post', '/sandbox/v1/reset', null, 'ResetResult', false],
  [
    'inspectProvisionRequest',
    'get',
    '/sandbox/v1/provision_requests/{provision_token_request_id}',
    null,
    'SandboxProvisionRequest',
    false,
  ],
  [
    'completeProvisionRequest',
    'post',
    '/sandbox/v1/provision_requests/{provision_token_request_id}/complete',
    'CompleteProvisionRequestRequest',
    'SandboxProvisionRequest',
    true,
  ],
  [
    'decideLetter',
    'post',
    '/sandbox/v1/provision_requests/{provision_token_request_id}/letter',
    'DecideLetterRequest',
    'SandboxProvisionRequest',
    true,
  ],
  [
    'retrieveTokenEligibility',
    'get',
    '/sandbox/v1/payment_tokens/{payment_token}/eligibility',
    null,
    'EligibilityResponse',
    false,
  ],
  ['replaceCatalog', 'put', '/sandbox/v1/catalog', 'ReplaceCatalogRequest', 'CatalogReplaced', true],
  ['reviewCatalogItem', 'post', '/sandbox/v1/catalog/items/review', 'ReviewCatalogItemRequest', 'CatalogItem', true],
  ['syncDispute', 'post', '/sandbox/v1/disputes/{dispute_id}/sync', 'SyncDisputeRequest', 'Dispute', true],
  ['submitDisputeEvidence', 'post', '/sandbox/v1/disputes/{dispute_id}/evidence', null, 'Dispute', true],
  ['escalateDispute', 'post', '/sandbox/v1/disputes/{dispute_id}/escalate', null, 'Dispute', true],
  ['dropDispute', 'post', '/sandbox/v1/disputes/{dispute_id}/drop', null, 'Dispute', true],
  ['createWebhookEndpoint', 'post', '/sandbox/v1/webhook_endpoints', 'WebhookEndpointRequest', 'WebhookEndpoint', true],
  ['listWebhookEndpoints', 'get', '/sandbox/v1/webhook_endpoints', null, 'WebhookEndpointList', false],
  ['deleteWebhookEndpoint', 'delete', '/sandbox/v1/webhook_endpoints/{endpoint_id}', null, 'WebhookEndpoint', false],
  ['listWebhookDeliveries', 'get', '/sandbox/v1/webhook_deliveries', null, 'DeliveryAttemptList', true],
  ['redeliverEvent', 'post', '/sandbox/v1/outbox/{event_id}/redeliver', null, 'Redelivery', false],
  [
    'listSessionTimeline',
    'get',
    '/sandbox/v1/payment_sessions/{payment_session_id}/timeline',
    null,
    'SessionTimeline',
    true,
  ],
  ['listWebhookEvents', 'get', '/sandbox/v1/webhook_events', null, 'WebhookEventList', true],
  ['retrieveRevision', 'get', '/sandbox/v1/revision', null, 'SandboxRevision', false],
  ['createWebhookListener', 'post', '/sandbox/v1/webhook_listeners', 'WebhookListenerRequest', 'WebhookListener', true],
  ['listWebhookListeners', 'get', '/sandbox/v1/webhook_listeners', null, 'WebhookListenerList', false],
  ['deleteWebhookListener', 'delete', '/sandbox/v1/webhook_listeners/{listener_id}', null, 'WebhookListener', false],
  [
    'receiveListenerDeliveries',
    'get',
    '/sandbox/v1/webhook_listeners/{listener_id}/deliveries',
    null,
    'ListenerDeliveryBatch',
    true,
  ],
  [
    'createListenerAttempt',
    'post',
    '/sandbox/v1/webhook_listeners/{listener_id}/attempts',
    'ListenerAttemptRequest',
    'ListenerAttemptOutcome',
    true,
  ],
  ['listApiKeys', 'get', '/sandbox/v1/admin/api_keys', null, 'ManagedApiKeyList', true],
  ['createApiKey', 'post', '/sandbox/v1/admin/api_keys', 'CreateApiKeyRequest', 'CreatedApiKey', true],
  ['rotateApiKey', 'post', '/sandbox/v1/admin/api_keys/{key_id}/rotate', 'RotateApiKeyRequest', 'RotatedApiKey', true],
  ['revokeApiKey', 'post', '/sandbox/v1/admin/api_keys/{key_id}/revoke', null, 'ManagedApiKey', true],
];

/** The Administration helpers: an admin key opens them (as a bearer token), and no channel's key. */
const ADMIN_HELPERS = ['listApiKeys', 'createApiKey', 'rotateApiKey', 'revokeApiKey'];

// The error code each status's examples may carry.
const CODES_BY_STATUS: Record<string, string[]> = {
  '400': ['InvalidRequest', 'InvalidState'],
  '401': ['Unauthorized'],
  '403': ['Forbidden'],
  '404': ['NotFound'],
  '405': ['MethodNotAllowed'],
  '500': ['ServerError'],
  '501': ['NotImplemented'],
  '431': ['RequestHeaderFieldsTooLarge'],
};

const sites = mediaSites(sandbox);
const tagNames = (sandbox as unknown as { tags: Array<{ name: string }> }).tags.map((t) => t.name);
const exampleValue = (example: { $ref?: string; value?: unknown }) =>
  resolve<{ value: unknown }>(example, sandbox).value;

describe('sandbox helper API: operations', () => {
  it('declares exactly the helpers, each under /sandbox/v1/', () => {
    const declared = sandboxOperations
      .map(({ method, path: p, op }) => `${op.operationId} ${method.toUpperCase()} ${p}`)
      .sort();
    const expected = HELPERS.map(([id, method, p]) => `${id} ${method.toUpperCase()} ${p}`).sort();
    expect(declared).toEqual(expected);
  });

  it.each(HELPERS)('%s: %s %s, its statuses and schemas', (operationId, method, p, requestSchema, okSchema, has400) => {
    const op = sandboxOperations.find((o) => o.op.operationId === operationId);
    expect(op, `${operationId} is missing`).toBeDefined();
    expect([op!.method, op!.path]).toEqual([method, p]);
    expect(Object.keys(op!.op.responses).sort()).toEqual(['200', ...(has400 ? ['400'] : []), ...COMMON].sort());
    const ok = resolve<{ content: Record<string, MediaType> }>(op!.op.responses['200']!, sandbox);
    expect(ok.content['application/json']?.schema?.$ref).toBe(ref(okSchema));
    if (requestSchema === null) {
      expect(op!.op.requestBody).toBeUndefined();
    } else {
      expect(op!.op.requestBody?.content['application/json']?.schema?.$ref).toBe(ref(requestSchema));
    }
  });

  it.each(sandboxOperations.map((o) => [o.op.operationId, o] as const))(
    '%s has one tag, a summary, a description and a verb-first camelCase id',
    (_id, { op }) => {
      expect(op.tags).toHaveLength(1);
      expect(tagNames).toContain(op.tags![0]);
      expect(op.summary).toBeTruthy();
      expect(op.description).toBeTruthy();
      expect(op.operationId).toMatch(/^[a-z]+[A-Z][A-Za-z0-9]*$/);
    },
  );

  it('answers every 4xx and 5xx with SandboxError', () => {
    const wrong: string[] = [];
    for (const site of sites) {
      if (site.status && /^[45]/.test(site.status) && site.media.schema?.$ref !== ref('SandboxError'))
        wrong.push(site.where);
    }
    expect(wrong).toEqual([]);
    expect(sandbox.components.schemas!.SandboxError).toMatchObject({
      required: ['error', 'message'],
      additionalProperties: false,
      properties: {
        error: {
          enum: [
            'InvalidRequest',
            'InvalidState',
            'NotFound',
            'MethodNotAllowed',
            'ServerError',
            'NotImplemented',
            'Unauthorized',
            'Forbidden',
            'MalformedRequest',
            'RequestTimeout',
            'RequestHeaderFieldsTooLarge',
            'TooManyRequests',
            'ServiceUnavailable',
          ],
        },
      },
    });
  });

  it('gives each error example the code of its status', () => {
    const wrong: string[] = [];
    for (const site of sites) {
      const codes = site.status ? CODES_BY_STATUS[site.status] : undefined;
      if (!codes) continue;
      for (const [name, example] of Object.entries(site.media.examples ?? {})) {
        const { error } = exampleValue(example) as { error: string };
        if (!codes.includes(error)) wrong.push(`${site.where} ${name}: ${error}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("is secured by the contract's API key header and served by the local sandbox", () => {
    const doc = sandbox as unknown as {
      info: { title: string; version: string; license: unknown; description: string };
      security: unknown;
    };
    expect(doc.info.title).toBe('HSA/FSA Checkout Sandbox helpers');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.info.license).toEqual((contract as unknown as { info: { license: unknown } }).info.license);
    expect(sandbox.servers.map(({ url, description }) => ({ url, description }))).toEqual([
      { url: 'http://127.0.0.1:4010', description: 'local sandbox' },
    ]);
    expect(doc.security).toEqual([{ ServiceApiKey: [] }]);
    expect(sandbox.components.securitySchemes!.ServiceApiKey).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'x-service-api-key',
    });
    for (const { op } of sandboxOperations)
      expect(op.security, op.operationId).toEqual(
        ADMIN_HELPERS.includes(op.operationId) ? [{ SandboxAdminKey: [] }] : undefined,
      );
    expect(sandbox.components.securitySchemes!.SandboxAdminKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const key of [
      'Where the reference is silent, the sandbox chooses',
      'sandbox-dev-key',
      'sandbox-other-key',
      'SANDBOX_API_KEYS',
    ]) {
      expect(doc.info.description).toContain(key);
    }
  });

  it('is never mixed into the contract', () => {
    expect(Object.keys(contract.paths).filter((p) => p.startsWith('/sandbox/'))).toEqual([]);
    expect(Object.keys(sandbox.paths).filter((p) => !p.startsWith('/sandbox/v1/'))).toEqual([]);
  });
});

describe('sandbox helper API: schemas', () => {
  it("reuses the contract's schemas and parameters unchanged", () => {
    for (const section of ['schemas', 'parameters'] as const) {
      const shared = Object.keys(sandbox.components[section] ?? {}).filter(
        (name) => name in (contract.components[section] ?? {}),
      );
      for (const name of shared) {
        expect(sandbox.components[section]![name], `${section}/${name}`).toEqual(contract.components[section]![name]);
      }
      if (section === 'schemas') {
        expect(shared).toEqual(
          expect.arrayContaining([
            'Dispute',
            'PaymentSessionStatus',
            'PaymentSessionStatusSummary',
            'PaymentSessionKind',
          ]),
        );
      }
    }
  });

  it('writes additionalProperties on every object schema, open only where the sandbox says it may grow', () => {
    const missing: string[] = [];
    const open: string[] = [];
    const own = Object.entries(sandbox.components.schemas!).filter(([name]) => !(name in contract.components.schemas!));
    for (const [name, schema] of own) {
      if (schema.type !== 'object') continue;
      if (!('additionalProperties' in schema)) missing.push(name);
      if (schema.additionalProperties === true) open.push(name);
    }
    expect(missing).toEqual([]);
    expect(open.sort()).toEqual(['SandboxPaymentSession']);
    expect(sandbox.components.schemas!.SandboxPaymentSession.description).toContain('may grow');
  });

  it('requires what the helpers need', () => {
    const required = (name: string) => [...(sandbox.components.schemas![name].required ?? [])].sort();
    expect(required('SandboxPaymentSession')).toEqual([
      'channel',
      'created_at',
      'id',
      'kind',
      'status',
      'status_summary',
      'total_amount',
    ]);
    expect(required('CheckoutOutcome')).toEqual(['redirect_url', 'status']);
    expect(required('CompleteCheckoutRequest')).toEqual([]);
    expect(required('OpenDisputeRequest')).toEqual([]);
    expect(required('UpdateFeaturesRequest')).toEqual([]);
    expect(sandbox.components.schemas!.UpdateFeaturesRequest.minProperties).toBe(1);
    expect(required('ChannelFeatures')).toEqual(['authorization', 'tokenization']);
    expect(required('OutboxEvent')).toEqual(['created_at', 'delivered_at', 'event_type', 'id', 'payload']);
    expect(required('FaultRequest')).toEqual(['operation_id', 'status']);
    expect(required('RequireTokenActionRequest')).toEqual(['next_action']);
    expect(required('WebhookListenerRequest')).toEqual(['forward_url']);
    expect(required('ListenerAttemptRequest')).toEqual(['claim_id', 'delivery_id', 'latency_ms', 'status']);
    expect(required('ListenerDelivery')).toEqual([
      'attempt',
      'claim_id',
      'delivery_id',
      'event_id',
      'event_type',
      'object_id',
      'request_body',
      'request_headers',
      'webhook_delivery_id',
    ]);
  });
});

describe('sandbox helper API: examples', () => {
  it('finds the media types to check', () => {
    expect(sites.length).toBeGreaterThan(70);
  });

  it.each(sites.map((s) => [s.where, s] as const))('%s has at least one named example', (_where, site) => {
    expect(Object.keys(site.media.examples ?? {}).length).toBeGreaterThan(0);
  });

  it.each(sites.map((s) => [s.where, s] as const))('%s: every example validates', (_where, site) => {
    for (const [name, example] of Object.entries(site.media.examples ?? {})) {
      expect({ example: name, problems: violations(site.media.schema, exampleValue(example)) }).toEqual({
        example: name,
        problems: [],
      });
    }
  });

  it('every named example in components is used somewhere', () => {
    const used = new Set<string>();
    for (const site of sites) {
      for (const example of Object.values(site.media.examples ?? {})) {
        if (example.$ref) used.add(example.$ref.split('/').pop()!);
      }
    }
    expect(Object.keys(sandbox.components.examples ?? {}).filter((name) => !used.has(name))).toEqual([]);
  });

  it('rejects a body that breaks its schema (the validator is live)', () => {
    expect(violations({ $ref: ref('SandboxError') }, { error: 'SessionVoided', message: 'x' })).not.toEqual([]);
    expect(violations({ $ref: ref('CompleteCheckoutRequest') }, { eligible: true, extra: 1 })).not.toEqual([]);
    expect(violations({ $ref: ref('UpdateFeaturesRequest') }, {})).not.toEqual([]);
    expect(
      violations({ $ref: ref('FaultRequest') }, { operation_id: 'capturePaymentSession', status: 404 }),
    ).not.toEqual([]);
    expect(violations({ $ref: ref('RequireTokenActionRequest') }, { next_action: null })).toEqual([]);
    expect(violations({ $ref: ref('SandboxPaymentSession') }, { id: 'not-a-uuid' })).not.toEqual([]);
    expect(violations({ $ref: ref('WebhookListenerRequest') }, { forward_url: 'ftp://localhost/' })).not.toEqual([]);
    expect(
      violations({ $ref: ref('ListenerAttemptRequest') }, { delivery_id: '1', status: 99, latency_ms: 0 }),
    ).not.toEqual([]);
  });
});

// .spectral.yaml relaxes two rules for a file named sandbox.yaml: more verbs in operationIds, and
// the plain-HTTP loopback server. Both must stay that narrow.
describe('sandbox helper API: Spectral overrides', () => {
  let dir: string;
  const lint = (file: string) => {
    const result = spawnSync(
      path.join(repoRoot, 'node_modules', '.bin', 'spectral'),
      ['lint', file, '--ruleset', '.spectral.yaml', '--format', 'json', '--quiet'],
      { cwd: repoRoot, encoding: 'utf8' },
    );
    return (JSON.parse(result.stdout) as Array<{ code: string; path: string[] }>).map(
      (r) => `${r.code} ${r.path.join('.')}`,
    );
  };
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sandbox-spectral-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('still reject an unknown verb and a second plain-HTTP server in sandbox.yaml', () => {
    const broken = structuredClone(sandbox) as typeof sandbox;
    (broken.paths['/sandbox/v1/clock']!.get as { operationId: string }).operationId = 'fetchClock';
    broken.servers.push({
      url: 'http://sandbox.example.net',
      description: 'remote',
      'x-internal': false,
    } as (typeof broken.servers)[number]);
    writeFileSync(path.join(dir, 'sandbox.yaml'), JSON.stringify(broken));
    expect(lint(path.join(dir, 'sandbox.yaml')).sort()).toEqual([
      'operation-id-camel-case-verb-first paths./sandbox/v1/clock.get.operationId',
      'owasp:api8:2023-no-server-http servers.1.url',
    ]);
  });

  it('do not apply to any other file', () => {
    writeFileSync(path.join(dir, 'helpers.yaml'), JSON.stringify(sandbox));
    const codes = lint(path.join(dir, 'helpers.yaml'));
    expect(codes).toContain('owasp:api8:2023-no-server-http servers.0.url');
    expect(codes).toContain('operation-id-camel-case-verb-first paths./sandbox/v1/clock/advance.post.operationId');
  });
}, 60_000);
