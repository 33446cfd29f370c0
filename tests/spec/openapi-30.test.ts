// The OpenAPI 3.0.3 companion, generated/openapi-3.0.{json,yaml}: valid against the official 3.0
// schema, the same contract as the 3.1 document (paths, operations, response codes, schema names),
// its YAML the same document as its JSON, and every loss the converter reports named in CONTRIBUTING.md.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { toOpenApi30 } from '../../build/lib/openapi-30.ts';
import { repoRoot } from '../../testkit/contract.js';

type Json = Record<string, any>;
type Loss = { kind: string; at: string; to: string };

const read = (file: string) => readFileSync(path.join(repoRoot, file), 'utf8');
const source = JSON.parse(read('generated/openapi.json')) as Json;
const companion = JSON.parse(read('generated/openapi-3.0.json')) as Json;
const { losses } = (toOpenApi30 as (document: Json) => { losses: Loss[] })(source);

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** Every operation of a map of path items: `METHOD key operationId [response codes]`. */
const operationsOf = (items: Json = {}) =>
  Object.entries(items).flatMap(([key, item]) =>
    METHODS.filter((method) => item[method]).map(
      (method) =>
        `${method.toUpperCase()} ${key} ${item[method].operationId} [${Object.keys(item[method].responses).join(' ')}]`,
    ),
  );
const namesOf = (document: Json) =>
  Object.fromEntries(
    Object.entries(document.components).map(([kind, entries]) => [kind, Object.keys(entries as Json)]),
  );

describe('the OpenAPI 3.0 companion', () => {
  it('is valid against the official OpenAPI 3.0 schema', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(companion));
    expect(result.errors).toBeUndefined();
    expect([companion.openapi, validator.version, result.valid]).toEqual(['3.0.3', '3.0', true]);
  });

  it('has every path, operation, operationId and response code of the 3.1 document', () => {
    expect(Object.keys(companion.paths)).toEqual(Object.keys(source.paths));
    expect(operationsOf(companion.paths)).toEqual(operationsOf(source.paths));
    expect(operationsOf(companion.paths).length).toBeGreaterThan(10);
  });

  it('has every webhook, under x-webhooks, with its operationId and response codes', () => {
    expect(companion).not.toHaveProperty('webhooks');
    expect(operationsOf(companion['x-webhooks'])).toEqual(operationsOf(source.webhooks));
    expect(Object.keys(companion['x-webhooks']).length).toBeGreaterThan(0);
  });

  it('has every schema name and every other component of the 3.1 document, and after them the lists of known values', () => {
    const names = namesOf(companion);
    const knownValueLists = names.schemas!.slice(namesOf(source).schemas!.length);
    expect({ ...names, schemas: names.schemas!.slice(0, -knownValueLists.length) }).toEqual(namesOf(source));
    expect(Object.keys(companion.components.schemas)).toContain('CreatePaymentSessionRequest');
    expect(knownValueLists.every((name) => name.endsWith('KnownValue'))).toBe(true);
  });

  it("names, in x-known-values, a closed enum of each open enum's known values, which nothing refers to", () => {
    const schemas = companion.components.schemas;
    const named: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        const schema = node as Json;
        if ('x-extensible-enum' in schema) {
          named.push(schema['x-known-values']);
          expect(schema).toMatchObject({ type: 'string' });
          expect(schema).not.toHaveProperty('enum');
          expect(schemas[schema['x-known-values']]).toMatchObject({
            type: 'string',
            enum: schema['x-extensible-enum'],
          });
        }
        Object.values(schema).forEach(walk);
      }
    };
    walk(companion);
    const lists = Object.keys(schemas).filter((name) => name.endsWith('KnownValue'));
    expect(new Set(named)).toEqual(new Set(lists));
    expect(lists).toEqual(
      expect.arrayContaining([
        'PaymentSessionStatusSummaryKnownValue',
        'PaymentSessionVoidErrorErrorKnownValue',
        'CatalogEligibilityKnownValue',
      ]),
    );
    const voidError = source.components.schemas.PaymentSessionVoidError.properties.error;
    expect(schemas.PaymentSessionVoidErrorErrorKnownValue.enum).toEqual(voidError.anyOf[0].enum);
    for (const name of lists) expect(JSON.stringify(companion)).not.toContain(`"#/components/schemas/${name}"`);
  });

  it('says in 3.0 terms what the 3.1 document says in its own', () => {
    const schemas = companion.components.schemas;
    expect(schemas.CatalogItemList.properties.pagination).toMatchObject({
      type: 'object',
      nullable: true,
      allOf: [{ $ref: '#/components/schemas/Pagination' }],
    });
    expect(schemas.CreatePaymentSessionRequest['x-dependent-schemas']).toEqual(
      source.components.schemas.CreatePaymentSessionRequest.dependentSchemas,
    );
    expect(schemas.CreatePaymentSessionRequest.description).toContain(
      'kept in JSON Schema 2020-12 in `x-dependent-schemas`, `x-if` and `x-then`',
    );
    expect(companion.info['x-summary']).toBe(source.info.summary);
  });

  it('is, in YAML, the same document as in JSON, read by a YAML 1.1 or a 1.2 parser', () => {
    const yaml = read('generated/openapi-3.0.yaml');
    expect(parse(yaml)).toEqual(companion);
    expect(parse(yaml, { version: '1.1' })).toEqual(companion);
  });

  it('reports each loss where the 3.1 document has it', () => {
    expect(losses.length).toBeGreaterThan(0);
    for (const { at } of losses) {
      const found = at
        .slice(2)
        .split('/')
        .reduce(
          (node: unknown, key) => (node as Json | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')],
          source,
        );
      expect({ at, found: found !== undefined }).toEqual({ at, found: true });
    }
  });

  it("has its every kind of loss named in CONTRIBUTING.md's list", () => {
    const contributing = read('CONTRIBUTING.md');
    const start = contributing.indexOf('<!-- losses:');
    expect(start).toBeGreaterThan(0);
    const list = contributing.slice(start, contributing.indexOf('\n## ', start));
    const unnamed = [...new Set(losses.map((loss) => loss.kind))].filter((kind) => !list.includes(`\`${kind}\``));
    expect(unnamed, "name each kind of loss, with where the companion keeps it, in CONTRIBUTING.md's list").toEqual([]);
  });
});
