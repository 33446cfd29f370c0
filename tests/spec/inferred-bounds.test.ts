// Every bound in the contract (minimum, maximum, lengths, pattern, item counts) is either one the
// reference states, listed here with where it says so, or marked inferred on its own schema with
// `x-inferred-bounds: [<keyword>, …]`. A new bound without its mark fails here.
import { describe, expect, it } from 'vitest';
import { contract } from '../../testkit/contract.js';

const BOUND_KEYWORDS = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
];

/** Bounds the reference states: pointer → keyword → where. */
const STATED: Record<string, Record<string, string>> = {
  '#/components/schemas/CreatePaymentSessionRequest/properties/total_amount': {
    minimum: 'total_amount "must be greater than 0"; a free trial requires total_amount=0',
  },
  '#/components/schemas/CreatePaymentSessionRequest/then/properties/total_amount': {
    minimum: 'total_amount "must be greater than 0" (outside a free trial)',
  },
  '#/components/schemas/CapturePaymentSessionRequest/properties/total_amount': {
    minimum: 'capture TotalAmountInvalid: 0 or negative',
  },
  '#/components/schemas/CreateRefundRequest/properties/amount': { minimum: 'refund amount "greater than 0"' },
  '#/components/schemas/Refund/properties/amount': { minimum: 'refund amount "greater than 0"' },
  '#/components/schemas/Dispute/properties/currency': { pattern: '"Upper-case currency code"' },
  '#/components/parameters/ServiceSignature/schema': { pattern: '`t=<unix-timestamp>,v0=<hex-signature>`' },
  '#/paths/~1api~1v1~1payment_tokens/get/parameters/4/schema': { pattern: 'card_expires_before (YYYY-MM)' },
  ...Object.fromEntries(
    [
      'PaymentSessionCompleteEvent',
      'PaymentTokenUpdatedEvent',
      'ItemEligibilityUpdatedEvent',
      'DisputeCreatedEvent',
      'DisputeUpdatedEvent',
      'DisputeClosedEvent',
      'DisputeEvidenceSubmittedEvent',
    ].map((name) => [
      `#/components/schemas/${name}/properties/webhook_delivery_id`,
      { pattern: 'webhook_delivery_id "string, prefix dlv_"' },
    ]),
  ),
};

interface Bound {
  pointer: string;
  keyword: string;
  marked: boolean;
}

function bounds(): { found: Bound[]; marks: Array<{ pointer: string; keyword: string }> } {
  const found: Bound[] = [];
  const marks: Array<{ pointer: string; keyword: string }> = [];
  const walk = (node: unknown, pointer: string): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) walk(item, `${pointer}/${i}`);
      return;
    }
    const record = node as Record<string, unknown>;
    const inferred = (record['x-inferred-bounds'] as string[] | undefined) ?? [];
    for (const keyword of inferred) marks.push({ pointer, keyword });
    // A schema's bound is a number or a string; a property *named* like a keyword is an object.
    for (const keyword of BOUND_KEYWORDS) {
      if (keyword in record && typeof record[keyword] !== 'object')
        found.push({ pointer, keyword, marked: inferred.includes(keyword) });
    }
    for (const [key, value] of Object.entries(record)) {
      if (key === 'examples' || key === 'example') continue;
      walk(value, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    }
  };
  for (const part of ['paths', 'webhooks', 'components'] as const)
    walk((contract as unknown as Record<string, unknown>)[part], `#/${part}`);
  return { found, marks };
}

describe('inferred bounds are marked', () => {
  const { found, marks } = bounds();

  it('finds the bounds (the walk reaches the schemas)', () => {
    expect(found.length).toBeGreaterThan(30);
    expect(found).toContainEqual({
      pointer: '#/components/schemas/OrderItemInput/properties/quantity',
      keyword: 'minimum',
      marked: true,
    });
  });

  it('every bound the reference does not state carries x-inferred-bounds naming it', () => {
    const unmarked = found
      .filter((b) => !b.marked && !STATED[b.pointer]?.[b.keyword])
      .map((b) => `${b.pointer} ${b.keyword}`);
    expect(unmarked).toEqual([]);
  });

  it('no stated bound is marked inferred, and every mark names a bound of its own schema', () => {
    expect(
      found.filter((b) => b.marked && STATED[b.pointer]?.[b.keyword]).map((b) => `${b.pointer} ${b.keyword}`),
    ).toEqual([]);
    const stale = marks.filter((m) => !found.some((b) => b.pointer === m.pointer && b.keyword === m.keyword));
    expect(stale).toEqual([]);
  });

  it('every stated bound is still in the contract', () => {
    const listed = Object.entries(STATED).flatMap(([pointer, keywords]) =>
      Object.keys(keywords).map((keyword) => `${pointer} ${keyword}`),
    );
    const present = new Set(found.map((b) => `${b.pointer} ${b.keyword}`));
    expect(listed.filter((entry) => !present.has(entry))).toEqual([]);
  });

  it('the bounds the reference leaves out are marked: quantity ≥ 1, price ≥ 0, total_additional_charges ≥ 0', () => {
    const schemas = contract.components!.schemas! as Record<
      string,
      { properties: Record<string, Record<string, unknown>> }
    >;
    expect(schemas.OrderItemInput!.properties.quantity!['x-inferred-bounds']).toEqual(['minimum']);
    expect(schemas.OrderItemInput!.properties.price!['x-inferred-bounds']).toEqual(['minimum']);
    expect(schemas.AmountDetails!.properties.total_additional_charges!['x-inferred-bounds']).toEqual(['minimum']);
  });
});
