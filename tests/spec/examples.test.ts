// Every request body, response and webhook payload has named examples, and every example
// validates against its schema (ajv, JSON Schema 2020-12).
import { describe, expect, it } from 'vitest';
import { contract, mediaSites, operationById, resolve, violations } from '../../testkit/contract.js';

const sites = mediaSites();

describe('examples', () => {
  it('finds the media types to check', () => {
    expect(sites.length).toBeGreaterThan(60);
  });

  it.each(sites.map((s) => [s.where, s] as const))('%s has at least one named example', (_where, site) => {
    expect(Object.keys(site.media.examples ?? {}).length).toBeGreaterThan(0);
  });

  it.each(sites.map((s) => [s.where, s] as const))('%s: every example validates', (_where, site) => {
    for (const [name, example] of Object.entries(site.media.examples ?? {})) {
      const { value } = resolve<{ value: unknown }>(example);
      expect({ example: name, problems: violations(site.media.schema, value) }).toEqual({
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
    const unused = Object.keys(contract.components.examples ?? {}).filter((name) => !used.has(name));
    expect(unused).toEqual([]);
  });

  it('a one-time payment on the detail record and list items carries capture_amount, equal to authorize_amount (reference: always present and equal)', () => {
    const okExamples = (operationId: string) => {
      const ok = resolve<{ content: Record<string, { examples?: Record<string, { $ref?: string }> }> }>(
        operationById(operationId).op.responses['200']!,
      );
      return Object.entries(ok.content['application/json']!.examples ?? {}).map(
        ([name, example]) => [name, resolve<{ value: any }>(example).value] as const,
      );
    };
    type Row = readonly [string, Record<string, unknown>];
    const records: Row[] = [
      ...okExamples('retrievePaymentSession'),
      ...okExamples('listPaymentSessions').flatMap(([name, value]) =>
        (value.payment_sessions as Array<Record<string, unknown>>).map((item, i): Row => [`${name}[${i}]`, item]),
      ),
    ];
    const oneTime = records.filter(([, record]) => record.kind === 'one_time_payment');
    expect(oneTime.length).toBeGreaterThanOrEqual(3);
    const flawed = oneTime
      .filter(
        ([, record]) => typeof record.capture_amount !== 'number' || record.capture_amount !== record.authorize_amount,
      )
      .map(([name]) => name);
    expect(flawed).toEqual([]);
  });

  it('rejects an example that breaks its schema (the validator is live)', () => {
    const schema = { $ref: '#/components/schemas/PaymentSessionCaptureError' };
    expect(violations(schema, { error: 42, message: 'x' })).not.toEqual([]);
    expect(violations(schema, { error: 'SessionVoided' })).not.toEqual([]);
    // A code this version does not list is valid: the service may add codes (the evolution policy).
    expect(violations(schema, { error: 'AddedLater', message: 'x', added_later: { since: 'later' } })).toEqual([]);
    expect(violations(schema, { error: 'SessionVoided', message: 'voided' })).toEqual([]);
  });
});
