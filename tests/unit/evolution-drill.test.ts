// The evolution drill's rules (src/sandbox/domain/evolution-drill.ts), called directly on small
// schemas: the new values' style, where a property is added, which values change, service_fee's
// representation, and the event of an unknown type.
import { describe, expect, it } from 'vitest';
import {
  ADDED_PROPERTY,
  ADDED_PROPERTY_VALUE,
  evolveValue,
  laterValue,
  openEnumOf,
  unknownEventAfter,
  UNKNOWN_EVENT_TYPE,
  type DrillSchema,
  type DrillSettings,
  type EvolveOptions,
} from '../../src/sandbox/domain/evolution-drill.js';

const open = (...known: string[]): DrillSchema => ({
  type: 'string',
  anyOf: [{ type: 'string', enum: known }, { type: 'string' }],
});
const schemas: Record<string, DrillSchema> = {
  Status: open('captured', 'authorized'),
  Summary: open('Partially Refunded', 'Captured'),
  Fee: { anyOf: [{ type: 'string' }, { type: 'number' }] },
  Item: {
    type: 'object',
    properties: { name: { type: 'string' }, status: { $ref: '#/Status' } },
    additionalProperties: true,
  },
  Session: {
    allOf: [
      { $ref: '#/Fields' },
      { type: 'object', properties: { order_items: { type: 'array', items: { $ref: '#/Item' } } } },
    ],
  },
  Fields: {
    type: 'object',
    properties: { status: { $ref: '#/Status' }, status_summary: { $ref: '#/Summary' }, service_fee: { $ref: '#/Fee' } },
  },
  Loop: { $ref: '#/Loop' },
};
const resolve = (ref: string) => {
  const found = schemas[ref.slice(2)];
  if (!found) throw new Error(`no schema ${ref}`);
  return found;
};
const on: DrillSettings = { enabled: true, service_fee: 'number' };
const options = (overrides: Partial<EvolveOptions> = {}): EvolveOptions => ({
  resolve,
  settings: on,
  newValues: true,
  ...overrides,
});
const added = { [ADDED_PROPERTY]: ADDED_PROPERTY_VALUE };

describe('laterValue', () => {
  it.each([
    [['Partially Refunded', 'Captured'], 'Added Later'],
    [['SessionCaptured', 'MissingField'], 'AddedLater'],
    [['dispute.created', 'dispute.closed'], 'added.later'],
    [['captured', 'authorization_voided'], 'added_later'],
    [['None', 'HealthSurvey'], 'AddedLater'],
    [['NotFound'], 'AddedLater'],
    [['captured', 'Captured'], 'added_later'],
    [['dispute.created', 'other'], 'added_later'],
    [['aB', 'cD'], 'added_later'],
    [['Ab-c', 'Cd'], 'added_later'],
    [[], 'added_later'],
  ])('%j gives %s', (known, expected) => {
    expect(laterValue(known)).toBe(expected);
  });
});

describe('openEnumOf', () => {
  it('reads the known values of anyOf [string enum, string], in either order', () => {
    expect(openEnumOf(open('a', 'b'))).toEqual(['a', 'b']);
    expect(openEnumOf({ anyOf: [{ type: 'string' }, { type: 'string', enum: ['x'] }] })).toEqual(['x']);
  });

  it.each([
    ['a closed enum', { type: 'string', enum: ['a'] }],
    ['three branches', { anyOf: [{ type: 'string', enum: ['a'] }, { type: 'string' }, { type: 'null' }] }],
    [
      'two enums',
      {
        anyOf: [
          { type: 'string', enum: ['a'] },
          { type: 'string', enum: ['b'] },
        ],
      },
    ],
    ['no enum', { anyOf: [{ type: 'string' }, { type: 'string' }] }],
    ['a branch of another type', { anyOf: [{ type: 'string', enum: ['a'] }, { type: 'number' }] }],
    ['a nullable reference', { anyOf: [{ $ref: '#/Status' }, { type: 'null' }] }],
  ] as Array<[string, DrillSchema]>)('finds none in %s', (_name, schema) => {
    expect(openEnumOf(schema)).toBeUndefined();
  });
});

describe('evolveValue', () => {
  it('adds added_later at every object level, replaces open-enum values, and writes service_fee as a number', () => {
    const session = {
      status: 'captured',
      status_summary: 'Partially Refunded',
      service_fee: '0.00',
      order_items: [{ name: 'M', status: 'authorized' }],
    };
    expect(evolveValue(session, { $ref: '#/Session' }, options())).toEqual({
      status: 'added_later',
      status_summary: 'Added Later',
      service_fee: 0,
      order_items: [{ name: 'M', status: 'added_later', ...added }],
      ...added,
    });
  });

  it('leaves its input alone', () => {
    const session = { status: 'captured', order_items: [{ name: 'M' }] };
    const copy = structuredClone(session);
    evolveValue(session, { $ref: '#/Session' }, options());
    expect(session).toEqual(copy);
  });

  it('keeps the values of a refusal (newValues false), and still adds the property', () => {
    expect(
      evolveValue(
        { status: 'captured', status_summary: 'Captured' },
        { $ref: '#/Fields' },
        options({ newValues: false }),
      ),
    ).toEqual({ status: 'captured', status_summary: 'Captured', ...added });
  });

  it('leaves a value the enum does not list, and one of another type', () => {
    expect(evolveValue('refunded_later', { $ref: '#/Status' }, options())).toBe('refunded_later');
    expect(evolveValue(3, { $ref: '#/Status' }, options())).toBe(3);
    expect(evolveValue(null, { $ref: '#/Status' }, options())).toBeNull();
  });

  it('finds the open enum in a nullable field (anyOf of the enum and null)', () => {
    const nullable: DrillSchema = { anyOf: [{ $ref: '#/Status' }, { type: 'null' }] };
    expect(evolveValue('captured', nullable, options())).toBe('added_later');
    expect(evolveValue(null, nullable, options())).toBeNull();
  });

  it('writes service_fee as the settings say, from either representation', () => {
    const fee = { $ref: '#/Fee' };
    expect(evolveValue('0.00', fee, options())).toBe(0);
    expect(evolveValue('12.50', fee, options())).toBe(12.5);
    expect(evolveValue(7, fee, options())).toBe(7);
    const asString = options({ settings: { enabled: true, service_fee: 'string' } });
    expect(evolveValue(0, fee, asString)).toBe('0.00');
    expect(evolveValue(12.5, fee, asString)).toBe('12.50');
    expect(evolveValue('0.00', fee, asString)).toBe('0.00');
    // A string that is no number stays as it is.
    expect(evolveValue('n/a', fee, options())).toBe('n/a');
    expect(evolveValue(' ', fee, options())).toBe(' ');
    expect(evolveValue('', fee, options())).toBe('');
    // A oneOf says the same as an anyOf here.
    expect(evolveValue('1.00', { oneOf: [{ type: 'number' }, { type: 'string' }] }, options())).toBe(1);
  });

  it('leaves a number whose composition is not a string or a number, whatever the fee setting', () => {
    const asString = options({ settings: { enabled: true, service_fee: 'string' } });
    expect(evolveValue(5, { anyOf: [{ type: 'number' }, { type: 'object' }] }, asString)).toBe(5);
    expect(evolveValue(5, { anyOf: [{ type: 'number' }, { type: 'number' }] }, asString)).toBe(5);
  });

  it('walks the object branch of a nullable composition, whichever keyword makes it one', () => {
    const kind = { kind: { $ref: '#/Status' } };
    for (const branch of [
      { type: 'object', properties: kind },
      { properties: kind },
      { allOf: [{ type: 'object', properties: kind }] },
    ] as DrillSchema[]) {
      expect(
        evolveValue({ kind: 'captured' }, { anyOf: [{ type: 'null' }, { type: 'string' }, branch] }, options()),
      ).toEqual({ kind: 'added_later', ...added });
    }
  });

  it('takes the first branch whose required properties the object has all of', () => {
    const schema: DrillSchema = {
      oneOf: [
        { type: 'object', required: ['a', 'b'], properties: { a: { $ref: '#/Summary' } } } as DrillSchema,
        { type: 'object', required: ['a'], properties: { a: { $ref: '#/Status' } } } as DrillSchema,
      ],
    };
    expect(evolveValue({ a: 'captured' }, schema, options())).toEqual({ a: 'added_later', ...added });
  });

  it('adds no property where the contract forbids one, nor to a map whose values it types', () => {
    expect(evolveValue({ a: 1 }, { type: 'object', additionalProperties: false }, options())).toEqual({ a: 1 });
    expect(evolveValue({ a: 'x' }, { type: 'object', additionalProperties: { type: 'string' } }, options())).toEqual({
      a: 'x',
    });
    // The map's values are walked with its schema.
    expect(
      evolveValue({ a: 'captured' }, { type: 'object', additionalProperties: { $ref: '#/Status' } }, options()),
    ).toEqual({ a: 'added_later' });
  });

  it('adds it to a free-form object, and keeps one already there', () => {
    expect(evolveValue({}, { type: 'object' }, options())).toEqual(added);
    expect(evolveValue({ [ADDED_PROPERTY]: 1 }, { type: 'object' }, options())).toEqual({ [ADDED_PROPERTY]: 1 });
  });

  it('walks the branch of a composition that fits the object, with its required properties', () => {
    const schema: DrillSchema = {
      anyOf: [
        { type: 'object', required: ['kind'], properties: { kind: { $ref: '#/Status' } } } as DrillSchema,
        { type: 'object', required: ['other'], properties: { other: { $ref: '#/Summary' } } } as DrillSchema,
        { type: 'null' },
      ],
    };
    expect(evolveValue({ other: 'Captured' }, schema, options())).toEqual({ other: 'Added Later', ...added });
    expect(evolveValue({ kind: 'captured' }, schema, options())).toEqual({ kind: 'added_later', ...added });
    expect(evolveValue(null, schema, options())).toBeNull();
  });

  it('walks array items, also through a nullable array', () => {
    const items = { type: 'array', items: { $ref: '#/Status' } } as DrillSchema;
    expect(evolveValue(['captured', 'x'], items, options())).toEqual(['added_later', 'x']);
    expect(evolveValue(['captured'], { anyOf: [items, { type: 'null' }] }, options())).toEqual(['added_later']);
    expect(evolveValue([{}], { type: 'array' }, options())).toEqual([{}]);
  });

  it('keeps a value the schema does not describe, and a field no schema declares', () => {
    expect(evolveValue({ x: 'captured' }, undefined, options())).toEqual({ x: 'captured' });
    expect(evolveValue({ x: 'captured' }, { type: 'object', properties: {} }, options())).toEqual({
      x: 'captured',
      ...added,
    });
    expect(evolveValue(true, { $ref: '#/Status' }, options())).toBe(true);
  });

  it('stops following a reference that leads back to itself', () => {
    expect(evolveValue({ a: 1 }, { $ref: '#/Loop' }, options())).toEqual({ a: 1, ...added });
  });
});

describe('unknownEventAfter', () => {
  it('names the event and the object it follows, and carries the added property', () => {
    expect(unknownEventAfter({ event_type: 'payment_session_complete', data: {} }, 'ps_1', 'ev_1')).toEqual({
      event_type: UNKNOWN_EVENT_TYPE,
      data: {
        id: 'ev_1',
        object: UNKNOWN_EVENT_TYPE,
        after_event_type: 'payment_session_complete',
        object_id: 'ps_1',
        ...added,
      },
    });
    expect(unknownEventAfter({ event_type: 'x', data: {} }, undefined, 'ev_2').data).not.toHaveProperty('object_id');
    expect(UNKNOWN_EVENT_TYPE).toBe('added_later');
  });
});
