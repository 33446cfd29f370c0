// customer_state is an ISO 3166-2:US region code: the 50 states, DC and the outlying areas the
// standard lists; the hosted survey has a full name for every code the contract accepts.
import { describe, expect, it } from 'vitest';
import { US_STATES } from '../../src/sandbox/checkout/us-states.js';
import { contract } from '../support/contract.js';

const schema = contract.components!.schemas!.UsRegionCode as { anyOf: Array<{ enum: string[] }> };

describe('UsRegionCode', () => {
  it('enumerates the 57 codes of ISO 3166-2:US, in upper and in lower case', () => {
    const [upper, lower] = schema.anyOf.map((branch) => branch.enum);
    expect(upper).toHaveLength(57);
    expect(upper).toEqual(expect.arrayContaining(['CA', 'NY', 'DC', 'AS', 'GU', 'MP', 'PR', 'UM', 'VI']));
    expect(upper).not.toContain('ZZ');
    expect(lower).toEqual(upper!.map((code) => code.toLowerCase()));
  });

  it('is the list the hosted survey names', () => {
    expect(Object.keys(US_STATES).sort()).toEqual([...schema.anyOf[0]!.enum].sort());
  });

  it('is what both creates take as customer_state', () => {
    for (const name of ['CreatePaymentSessionRequest', 'CreatePaymentTokenRequest']) {
      const property = (contract.components!.schemas![name] as { properties: Record<string, { $ref?: string }> }).properties.customer_state;
      expect(property!.$ref).toBe('#/components/schemas/UsRegionCode');
    }
  });
});
