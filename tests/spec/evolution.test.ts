// The evolution policy (docs/guides/versioning.md), held in both published documents: what the
// service sends is open (no object refuses a property it does not name, every enum may grow, or
// says why it cannot), and what a partner sends keeps its closed lists.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../testkit/contract.js';
import { closedObjects, enumsIn, schemaReach, type EvolutionDocument } from '../../build/lib/evolution.ts';

type Document = EvolutionDocument;

const read = (file: string): Document => JSON.parse(readFileSync(path.join(repoRoot, 'generated', file), 'utf8'));
const v31 = read('openapi.json');
const v30 = read('openapi-3.0.json');
const documents: Array<[string, Document]> = [
  ['OpenAPI 3.1 (openapi.json)', v31],
  ['OpenAPI 3.0 (openapi-3.0.json)', v30],
];

describe.each(documents)('%s', (_name, doc) => {
  const { answers, requests } = schemaReach(doc);
  const answerEnums = enumsIn(doc, answers);
  const requestEnums = enumsIn(doc, requests);

  it('answers and deliveries reach the resources, the errors and the events', () => {
    for (const name of [
      'PaymentSession',
      'PaymentSessionListItem',
      'Dispute',
      'PaymentToken',
      'CatalogItem',
      'PaymentSessionCaptureError',
      'NotFoundError',
      'PaymentSessionCompleteEvent',
      'DisputeCreatedEvent',
    ]) {
      expect(answers.has(name), name).toBe(true);
    }
    expect(answers.size).toBeGreaterThan(60);
  });

  it('no schema that an answer or a delivery reaches refuses a property it does not name', () => {
    expect(closedObjects(doc, answers)).toEqual([]);
  });

  it('every enum that an answer or a delivery carries is open, or says why it cannot grow', () => {
    const closedWithoutReason = answerEnums.filter((found) => found.kind === 'closed' && !found.closedBecause);
    expect(closedWithoutReason.map((found) => `${found.at} ${JSON.stringify(found.values)}`)).toEqual([]);
    expect(answerEnums.filter((found) => found.kind !== 'closed').length).toBeGreaterThan(25);
  });

  it("the enums that stay closed are the event envelopes' own event types", () => {
    const closed = answerEnums.filter((found) => found.kind === 'closed');
    expect(closed.map((found) => found.at.replace(/^#\/components\/schemas\//, '')).sort()).toEqual([
      'DisputeClosedEvent/properties/event_type',
      'DisputeCreatedEvent/properties/event_type',
      'DisputeEvidenceSubmittedEvent/properties/event_type',
      'DisputeUpdatedEvent/properties/event_type',
      'ItemEligibilityUpdatedEvent/properties/event_type',
      'PaymentTokenUpdatedEvent/properties/event_type',
    ]);
  });

  it('requests keep their closed lists: no open enum is what a partner sends', () => {
    expect(requestEnums.filter((found) => found.kind !== 'closed').map((found) => found.at)).toEqual([]);
    expect(requestEnums.length).toBeGreaterThan(3);
  });

  it('no schema with an enum is shared by a request and an answer (each side has its own)', () => {
    const shared = [...answers].filter((name) => requests.has(name) && enumsIn(doc, [name]).length > 0);
    expect(shared).toEqual([]);
  });

  it('an open enum never lists a value twice, nor an empty list', () => {
    for (const found of answerEnums.filter((e) => e.kind !== 'closed')) {
      expect(found.values.length, found.at).toBeGreaterThan(0);
      expect(new Set(found.values).size, found.at).toBe(found.values.length);
    }
  });
});

describe('the two documents', () => {
  it('open the same enums, with the same known values: anyOf in 3.1, x-extensible-enum in 3.0', () => {
    // As sets: the 3.0 companion writes a nullable open enum inline where it is used (openapi-30.mjs).
    const of = (doc: Document, kind: string) =>
      [
        ...new Set(
          enumsIn(doc, schemaReach(doc).answers)
            .filter((e) => e.kind === kind)
            .map((e) => JSON.stringify(e.values)),
        ),
      ].sort();
    expect(of(v30, 'open')).toEqual([]);
    expect(of(v31, 'extensible')).toEqual([]);
    expect(of(v30, 'extensible')).toEqual(of(v31, 'open'));
  });

  it('in 3.0, an open enum is a string whose description lists its known values', () => {
    for (const found of enumsIn(v30, schemaReach(v30).answers).filter((e) => e.kind === 'extensible')) {
      const schema = found.at
        .slice(2)
        .split('/')
        .reduce<any>((node, key) => node[key], v30);
      expect(schema.type, found.at).toBe('string');
      expect(schema.enum, found.at).toBeUndefined();
      expect(schema.description, found.at).toContain(
        `Known values: ${found.values.map((v) => `\`${v}\``).join(', ')}.`,
      );
    }
  });
});
