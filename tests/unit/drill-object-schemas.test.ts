// The evolution drill (domain/evolution-drill.ts) on a composition whose object branch says only
// `type: 'object'` (no properties, no allOf): that branch still describes the object, so what it
// says of added properties holds.
import { describe, expect, it } from 'vitest';
import {
  ADDED_PROPERTY,
  ADDED_PROPERTY_VALUE,
  evolveValue,
  type DrillSchema,
  type EvolveOptions,
} from '../../src/sandbox/domain/evolution-drill.js';

const schemas: Record<string, DrillSchema> = {
  Status: { type: 'string', anyOf: [{ type: 'string', enum: ['captured'] }, { type: 'string' }] },
};
const options: EvolveOptions = {
  resolve: (ref) => schemas[ref.slice(2)]!,
  settings: { enabled: true, service_fee: 'number' },
  newValues: true,
};
const nullable = (branch: DrillSchema): DrillSchema => ({ anyOf: [{ type: 'null' }, branch] });

describe('an object branch known by its type alone', () => {
  it('closes the object when the branch forbids other properties', () => {
    expect(evolveValue({ a: 1 }, nullable({ type: 'object', additionalProperties: false }), options)).toEqual({ a: 1 });
  });

  it('walks a typed map with the branch’s value schema, adding no property to it', () => {
    expect(
      evolveValue({ a: 'captured' }, nullable({ type: 'object', additionalProperties: { $ref: '#/Status' } }), options),
    ).toEqual({ a: 'added_later' });
  });

  it('leaves a branch of another type out, so the object stays open', () => {
    expect(evolveValue({ a: 1 }, nullable({ type: 'string' }), options)).toEqual({
      a: 1,
      [ADDED_PROPERTY]: ADDED_PROPERTY_VALUE,
    });
  });
});
