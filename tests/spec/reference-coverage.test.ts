// The document covers everything the reference lists: operations, statuses, error enums (each
// with an example), query parameters, enums, webhooks and the idempotency rules.
import { describe, expect, it } from 'vitest';
import { contract, operationById, operations, resolve, violations, type MediaType } from '../../testkit/contract.js';
import { schemaReach, type EvolutionDocument } from '../../build/lib/evolution.ts';
import { openEnumValues } from '../../src/contract/open-enum.js';
import { documentedValues } from '../../src/sandbox/http/document-facts.js';
import {
  COMMON_ERRORS,
  COMMON_STATUSES,
  DISPUTE_OPTIONAL_FIELDS,
  ENUMS,
  OPEN_ENUMS,
  ERRORS_400,
  IDEMPOTENCY,
  REQUEST_ENUMS,
  LIST_CATALOG_PARAMETERS,
  LIST_SESSION_PARAMETERS,
  LIST_TOKEN_PARAMETERS,
  OPERATIONS,
  UNDOCUMENTED_ERRORS_400,
  WEBHOOKS,
} from './reference.js';

const schemas = contract.components.schemas as Record<string, any>;

function parameterNames(operationId: string): Map<string, any> {
  const { op } = operationById(operationId);
  const item = contract.paths[operationById(operationId).path] as { parameters?: unknown[] };
  const all = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => resolve<any>(p));
  return new Map(all.map((p) => [p.name, p]));
}

function errorExamples(operationId: string, status: string): string[] {
  const response = resolve<{ content?: Record<string, MediaType> }>(operationById(operationId).op.responses[status]!);
  return Object.values(response.content?.['application/json']?.examples ?? {}).map(
    (e) => resolve<{ value: { error: string } }>(e).value.error,
  );
}

describe('operations', () => {
  it('the document has exactly the reference operations', () => {
    const found = operations()
      .map(({ method, path, op }) => `${op.operationId} ${method} ${path}`)
      .sort();
    const expected = OPERATIONS.map((o) => `${o.operationId} ${o.method} ${o.path}`).sort();
    expect(found).toEqual(expected);
  });

  it.each(OPERATIONS.map((o) => [o.operationId, o] as const))(
    '%s declares the statuses the reference gives it',
    (id, ref) => {
      const declared = Object.keys(operationById(id).op.responses).sort();
      const undocumented = id in UNDOCUMENTED_ERRORS_400 ? ['400'] : [];
      expect(declared).toEqual([...ref.statuses, ...undocumented, ...COMMON_STATUSES].sort());
    },
  );

  it.each(operations().map((o) => [o.op.operationId, o.op] as const))(
    '%s has a tag, a summary, a description and the API key',
    (_id, op) => {
      expect(op.tags?.length).toBe(1);
      expect(op.summary).toBeTruthy();
      expect(op.description).toBeTruthy();
      expect(op.security).toBeUndefined(); // inherits the global x-service-api-key requirement
    },
  );

  it('every operation requires the x-service-api-key header', () => {
    expect((contract as any).security).toEqual([{ ServiceApiKey: [] }]);
    expect(contract.components.securitySchemes!.ServiceApiKey).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'x-service-api-key',
    });
  });

  it('declares the development and production servers', () => {
    expect(contract.servers.map((s) => s.url)).toEqual([
      'https://dev-api.service.example',
      'https://api.service.example',
    ]);
  });
});

describe('errors', () => {
  const all400 = { ...ERRORS_400, ...UNDOCUMENTED_ERRORS_400 };

  it.each(Object.entries(all400))('%s: the 400 enum equals the reference list', (operationId, { schema, codes }) => {
    const response = operationById(operationId).op.responses['400']!;
    const media = resolve<{ content: Record<string, MediaType> }>(response).content['application/json']!;
    expect(media.schema?.$ref).toBe(`#/components/schemas/${schema}`);
    expect(documentedValues(schemas[schema].properties.error)).toEqual(codes);
    expect(openEnumValues(schemas[schema].properties.error)).toEqual(codes);
  });

  it.each(Object.entries(all400))('%s: every 400 code has a named example', (operationId, { codes }) => {
    expect(errorExamples(operationId, '400').sort()).toEqual([...codes].sort());
  });

  it.each(Object.entries(all400))(
    '%s: the 400 is marked x-undocumented exactly when the reference gives none',
    (operationId, { schema }) => {
      const undocumented = operationId in UNDOCUMENTED_ERRORS_400;
      const response = operationById(operationId).op.responses['400'] as Record<string, unknown>;
      expect(Boolean(response['x-undocumented'])).toBe(undocumented);
      expect(Boolean(schemas[schema]['x-undocumented'])).toBe(undocumented);
    },
  );

  it.each(Object.keys(UNDOCUMENTED_ERRORS_400))(
    '%s: the undocumented 400 example is named <Operation><Case>Response',
    (operationId) => {
      const response = resolve<{ content: Record<string, MediaType> }>(operationById(operationId).op.responses['400']!);
      const name = operationId[0]!.toUpperCase() + operationId.slice(1);
      expect(Object.keys(response.content['application/json']!.examples ?? {})).toEqual([
        `${name}InvalidRequestParameterResponse`,
      ]);
    },
  );

  it.each(Object.entries(COMMON_ERRORS))(
    'shared %s response carries its enum on every operation',
    (status, { schema, codes }) => {
      expect(openEnumValues(schemas[schema].properties.error)).toEqual(codes);
      for (const { op } of operations()) {
        expect(op.responses[status]).toEqual({ $ref: `#/components/responses/${schemaToResponse(schema)}` });
      }
    },
  );

  it('the 401 is marked undocumented', () => {
    expect(contract.components.responses!.Unauthorized['x-undocumented']).toBeTruthy();
  });

  it('create session answers 422 with next_action UpdatePaymentMethod | TakeHealthSurvey', () => {
    expect(openEnumValues(schemas.PaymentActionRequired.properties.next_action)).toEqual([
      'UpdatePaymentMethod',
      'TakeHealthSurvey',
    ]);
    expect(schemas.PaymentActionRequired.required).toEqual(['next_action', 'redirect_url']);
  });
});

function schemaToResponse(schema: string): string {
  return schema === 'ServerErrorError' ? 'ServerError' : schema.replace(/Error$/, '');
}

describe('query parameters', () => {
  it('list payment sessions has all 18 parameters with their types and defaults', () => {
    const params = parameterNames('listPaymentSessions');
    expect([...params.keys()].sort()).toEqual(Object.keys(LIST_SESSION_PARAMETERS).sort());
    for (const [name, expected] of Object.entries(LIST_SESSION_PARAMETERS)) {
      const schema = params.get(name).schema;
      expect({ name, type: schema.type, default: schema.default }).toEqual({
        name,
        type: expected.type,
        default: expected.default,
      });
      if (expected.format) expect(schema.format).toBe(expected.format);
    }
  });

  it('kind and status are comma-separated lists of their enums', () => {
    const params = parameterNames('listPaymentSessions');
    // A request names the closed lists; the answers' open enums may grow (REQUEST_ENUMS).
    for (const [name, target] of [
      ['kind', 'PaymentSessionKindInput'],
      ['status', 'PaymentSessionStatusInput'],
    ] as const) {
      expect(params.get(name)).toMatchObject({
        style: 'form',
        explode: false,
        schema: { items: { $ref: `#/components/schemas/${target}` } },
      });
    }
  });

  it('list payment tokens and list catalog items have their parameters', () => {
    expect([...parameterNames('listPaymentTokens').keys()].sort()).toEqual([...LIST_TOKEN_PARAMETERS].sort());
    expect([...parameterNames('listCatalogItems').keys()].sort()).toEqual([...LIST_CATALOG_PARAMETERS].sort());
    expect(parameterNames('listPaymentTokens').get('lmn_expires_before').schema.format).toBe('date');
    expect(parameterNames('listCatalogItems').get('updated_after').schema.format).toBe('date-time');
  });
});

describe('enums', () => {
  const at = (pointer: string) => pointer.split('.').reduce((node, key) => node[key], schemas as any);

  it.each(Object.entries(ENUMS))('%s has exactly the reference values, open to others', (pointer, values) => {
    expect(openEnumValues(at(pointer))).toEqual(values);
  });

  it.each(Object.entries(REQUEST_ENUMS))('%s, what requests send, is the closed list of %s', (name, answer) => {
    expect(schemas[name].enum).toEqual(ENUMS[answer]);
    expect(schemas[name].anyOf).toBeUndefined();
  });

  it.each(Object.entries(OPEN_ENUMS))('%s lists the values seen and stays open to others', (pointer, values) => {
    const schema = at(pointer);
    expect(schema.anyOf[0].enum).toEqual(values);
    expect(schema.anyOf[1].enum).toBeUndefined();
    // Every branch has a type, so that every generator types the fallback (a branch without one is `unknown`).
    expect(schema.anyOf.map((branch: { type?: unknown }) => branch.type)).toEqual(['string', 'string']);
  });
});

describe('webhooks', () => {
  it('declares every event, signed and legacy', () => {
    expect(Object.keys(contract.webhooks).sort()).toEqual(Object.keys(WEBHOOKS).sort());
  });

  it.each(Object.entries(WEBHOOKS))('%s has its body schema, its header and a 204 answer', (name, expected) => {
    const op = contract.webhooks[name]!.post!;
    expect(op.requestBody?.content['application/json']?.schema?.$ref).toBe(`#/components/schemas/${expected.schema}`);
    expect(op.responses['204']).toBeDefined();
    const headers = (op.parameters ?? []).map((p) => resolve<any>(p)).map((p) => `${p.in}:${p.name}`);
    expect(headers).toEqual([expected.signed ? 'header:x-service-signature' : 'header:x-service-api-key']);
    if (expected.eventType) {
      const eventType = schemas[expected.schema].properties.event_type;
      expect(eventType.const ?? eventType.enum ?? eventType.examples).toContain(expected.eventType);
    } else {
      expect(schemas[expected.schema].properties.event_type).toBeUndefined();
    }
  });

  it('the signed text and the delivery id are documented on every signed envelope', () => {
    for (const { schema, signed } of Object.values(WEBHOOKS)) {
      if (signed) expect(schemas[schema].properties.webhook_delivery_id.pattern).toBe('^dlv_');
    }
  });

  it('the signature header states its exact format and signed text', () => {
    const header = contract.components.parameters!.ServiceSignature;
    expect(header.description).toContain('t=<unix-timestamp>,v0=<hex-signature>');
    expect(header.description).toContain('<t>.<raw-request-body>');
    expect(new RegExp(header.schema.pattern).test('t=1763700000,v0=abc123,v0=def456')).toBe(true);
    expect(new RegExp(header.schema.pattern).test('v0=abc123')).toBe(false);
  });
});

describe('idempotency', () => {
  it('create session states its compared and ignored fields in x-idempotency', () => {
    const rules = operationById('createPaymentSession').op['x-idempotency'] as {
      compared: string[];
      ignored: string[];
      case_insensitive: string[];
    };
    expect(rules.compared).toEqual(IDEMPOTENCY.compared);
    expect(rules.ignored).toEqual(IDEMPOTENCY.ignored);
    expect(rules.compared.filter((f) => rules.ignored.includes(f))).toEqual([]);
    expect(rules.case_insensitive).toEqual(['customer_email']);
  });

  it('every field of the create request is either compared or ignored', () => {
    const rules = operationById('createPaymentSession').op['x-idempotency'] as {
      compared: string[];
      ignored: string[];
      not_listed: string[];
      key: string;
    };
    const topLevel = new Set(
      [...rules.compared, ...rules.ignored, ...rules.not_listed, rules.key].map((f) => f.split('.')[0]),
    );
    const missing = Object.keys(schemas.CreatePaymentSessionRequest.properties).filter((f) => !topLevel.has(f));
    expect(missing).toEqual([]);
  });

  it.each([
    'capturePaymentSession',
    'voidPaymentSession',
    'createRefund',
    'createPaymentToken',
    'cancelPaymentSession',
  ])('%s describes its same-key behaviour', (operationId) => {
    expect(operationById(operationId).op.description).toMatch(/\*\*Idempotency\.\*\*/);
  });
});

describe('required fields', () => {
  it('the payment session detail record always has order_items; a list item only on request', () => {
    expect(
      violations({ $ref: '#/components/schemas/PaymentSession' }, { status: 'pending', status_summary: 'Incomplete' }),
    ).not.toEqual([]);
    expect(
      violations(
        { $ref: '#/components/schemas/PaymentSession' },
        { status: 'pending', status_summary: 'Incomplete', order_items: [] },
      ),
    ).toEqual([]);
    expect(
      violations(
        { $ref: '#/components/schemas/PaymentSessionListItem' },
        { status: 'pending', status_summary: 'Incomplete' },
      ),
    ).toEqual([]);
  });

  it('the eligibility response always has items, eligibility_status and lmn_expires_at (the last two nullable)', () => {
    expect(schemas.EligibilityResponse.required).toEqual(['items', 'eligibility_status', 'lmn_expires_at']);
    expect(schemas.EligibilityResponse.properties.eligibility_status.anyOf).toEqual([
      { $ref: '#/components/schemas/EligibilityStatus' },
      { type: 'null' },
    ]);
    expect(schemas.EligibilityResponse.properties.lmn_expires_at.type).toEqual(['string', 'null']);
  });

  it('a canonical dispute carries every field except those that appear only when not null', () => {
    const fields = Object.keys(schemas.Dispute.properties);
    expect([...schemas.Dispute.required].sort()).toEqual(
      fields.filter((f) => !DISPUTE_OPTIONAL_FIELDS.includes(f)).sort(),
    );
  });
});

describe('stated bounds only', () => {
  const requestSchemas = operations()
    .map(
      ({ op }) =>
        (op.requestBody as { content?: Record<string, MediaType> } | undefined)?.content?.['application/json']?.schema
          ?.$ref,
    )
    .filter((ref): ref is string => Boolean(ref))
    .map((ref) => ref.split('/').pop()!);

  it.each([...new Set(requestSchemas)])('request body %s is open to fields it does not document', (name) => {
    expect(schemas[name].additionalProperties).toBe(true);
    expect(schemas[name]['x-undocumented']).toBeTruthy();
  });

  it('order items of a request are open too', () => {
    expect(schemas.OrderItemInput.additionalProperties).toBe(true);
    expect(schemas.DisplayNextBillInfo.additionalProperties).toBe(true);
  });

  it.each(['CreatePaymentSessionRequest', 'CreatePaymentTokenRequest'])(
    '%s: success_url and failure_url say the absolute http(s) syntax the sandbox enforces, marked inferred, with no format: uri',
    (name) => {
      for (const field of ['success_url', 'failure_url']) {
        const property = schemas[name].properties[field];
        // The template {{payment_session_id}} is no RFC 3986 URI.
        expect(property).not.toHaveProperty('format');
        expect(property['x-inferred-bounds']).toEqual(['pattern']);
        expect(property['x-undocumented']).toMatch(/inferred/);
        const pattern = new RegExp(property.pattern);
        expect(
          ['https://shop.example/ok?session={{payment_session_id}}', 'HTTP://127.0.0.1:8080/', 'http://[::1]/x'].map(
            (v) => pattern.test(v),
          ),
        ).toEqual([true, true, true]);
        expect(
          [
            '',
            'not a url',
            '/relative/path',
            'javascript:alert(1)',
            'ftp://files.example/',
            'https://',
            ' https://shop.example/',
          ].map((v) => pattern.test(v)),
        ).toEqual([false, false, false, false, false, false, false]);
      }
    },
  );

  it.each(['CreatePaymentSessionRequest', 'CreatePaymentTokenRequest'])(
    '%s: customer_state is an ISO 3166-2:US code, in its upper case',
    (name) => {
      const valid = (value: string) => violations({ $ref: '#/components/schemas/UsRegionCode' }, value).length === 0;
      expect(schemas[name].properties.customer_state.$ref).toBe('#/components/schemas/UsRegionCode');
      expect(['CA', 'DC', 'PR', 'UM'].map(valid)).toEqual([true, true, true, true]);
      expect(['ZZ', 'C', 'CAL', 'US-CA', 'C1', 'ON', 'ca'].map(valid)).toEqual([
        false,
        false,
        false,
        false,
        false,
        false,
        false,
      ]);
    },
  );

  it('says that tokenize is not compared on a retry, on the field and in x-idempotency', () => {
    const tokenize = schemas.CreatePaymentSessionRequest.properties.tokenize;
    expect(tokenize.description).toMatch(/Not compared on an idempotent retry/);
    expect(tokenize.description).toMatch(/returns the original session/);
    expect(tokenize['x-undocumented']).toMatch(/not compared .*inferred/);
    const rules = (
      operationById('createPaymentSession').op as unknown as {
        'x-idempotency': { compared: string[]; not_listed: string[] };
      }
    )['x-idempotency'];
    expect(rules.compared).not.toContain('tokenize');
    expect(rules.not_listed).toContain('tokenize');
  });

  it('idempotency keys have no minimum length', () => {
    for (const name of [
      'CreatePaymentSessionRequest',
      'CreatePaymentTokenRequest',
      'CapturePaymentSessionRequest',
      'VoidPaymentSessionRequest',
      'CreateRefundRequest',
    ]) {
      expect({ name, key: schemas[name].properties.idempotency_key }).not.toHaveProperty('key.minLength');
    }
  });

  it('a free trial without tokenize is a missing required parameter, tokenize=false an invalid one, a non-zero total TotalAmountInvalid: all marked inferred', () => {
    const rule = schemas.CreatePaymentSessionRequest.dependentSchemas.display_next_bill_info;
    expect(rule.required).toEqual(['tokenize']);
    expect(rule.properties.tokenize.const).toBe(true);
    expect(rule.properties.total_amount.const).toBe(0);
    const errors = schemas.PaymentSessionCreateError.description as string;
    expect(errors).toMatch(/inferred/);
    expect(errors).toMatch(
      /without `tokenize`,\s+`MissingRequiredParameter`; with `tokenize=false`, `InvalidRequestParameter`/,
    );
    expect(errors).toMatch(/other than 0, `TotalAmountInvalid`/);
  });
});

describe('undocumented parts', () => {
  it('every open schema that a request reaches says what is unknown', () => {
    // A request's schema is open only because the service accepts fields the documentation does not
    // name; an answer's is open by the evolution policy (tests/spec/evolution.test.ts).
    const { requests } = schemaReach(contract as unknown as EvolutionDocument);
    const open = [...requests].filter(
      (name) => schemas[name].additionalProperties === true && !schemas[name]['x-undocumented'],
    );
    expect(open).toEqual([]);
    expect([...requests].filter((name) => schemas[name].additionalProperties === true).length).toBeGreaterThan(8);
  });
});
