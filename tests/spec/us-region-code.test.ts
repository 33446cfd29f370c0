// customer_state is an ISO 3166-2:US region code: the 50 states, DC and the outlying areas the
// standard lists; the hosted survey has a full name for every code the contract accepts.
import { describe, expect, it } from 'vitest';
import { US_STATES } from '../../src/sandbox/checkout/us-states.js';
import { contract } from '../../testkit/contract.js';

const schema = contract.components!.schemas!.UsRegionCode as { enum: string[] };

describe('UsRegionCode', () => {
  // One enum, in ISO 3166-2's upper case: an anyOf of an upper and a lower case enum gave
  // openapi-generator's Python client an Enum whose members clashed (AL = 'AL', AL = 'al').
  it('enumerates the 57 codes of ISO 3166-2:US, in upper case only', () => {
    expect(schema.enum).toHaveLength(57);
    expect(schema.enum).toEqual(expect.arrayContaining(['CA', 'NY', 'DC', 'AS', 'GU', 'MP', 'PR', 'UM', 'VI']));
    expect(schema.enum).not.toContain('ZZ');
    expect(schema.enum.every((code) => code === code.toUpperCase())).toBe(true);
  });

  it('is the list the hosted survey names', () => {
    expect(Object.keys(US_STATES).sort()).toEqual([...schema.enum].sort());
  });

  it('is what both creates take as customer_state', () => {
    for (const name of ['CreatePaymentSessionRequest', 'CreatePaymentTokenRequest']) {
      const property = (contract.components!.schemas![name] as { properties: Record<string, { $ref?: string }> })
        .properties.customer_state;
      expect(property!.$ref).toBe('#/components/schemas/UsRegionCode');
    }
  });
});
