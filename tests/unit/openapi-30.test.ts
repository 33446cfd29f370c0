// The OpenAPI 3.0.3 converter (build/lib/openapi-30.ts) on small documents: each rule, in each
// place a schema can stand, what it reports as lost, and what it refuses.
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { toOpenApi30 } from '../../build/lib/openapi-30.ts';

type Json = Record<string, any>;
type Loss = { kind: string; at: string; to: string };
const convert = toOpenApi30 as (document: Json) => { document: Json; losses: Loss[] };

/** A minimal OpenAPI 3.1 document, with `extra` merged in at the top. */
const documentWith = (extra: Json = {}): Json => ({
  openapi: '3.1.0',
  info: { title: 'T', version: '1.0.0' },
  paths: {},
  ...extra,
});

/** A document whose components hold the schema S (and `others`), converted. */
function convertSchema(schema: unknown, others: Json = {}) {
  const { document, losses } = convert(documentWith({ components: { schemas: { S: schema, ...others } } }));
  return { schema: document.components.schemas.S as Json, schemas: document.components.schemas as Json, losses };
}

const kinds = (losses: Loss[]) => losses.map((loss) => loss.kind);

describe('the document', () => {
  it('becomes 3.0.3, and the 3.1 input is left as it was', () => {
    const input = documentWith({ components: { schemas: { S: { type: ['string', 'null'], const: 'a' } } } });
    const before = structuredClone(input);
    const { document } = convert(input);
    expect(document.openapi).toBe('3.0.3');
    expect(input).toEqual(before);
  });

  it('refuses a document that is not OpenAPI 3.1', () => {
    expect(() => convert({ openapi: '3.0.3', info: { title: 'T', version: '1' }, paths: {} })).toThrow(
      /must be an OpenAPI 3\.1 document/,
    );
  });

  it('keeps info.summary and license.identifier as extensions, and says so', () => {
    const { document, losses } = convert(
      documentWith({
        info: { title: 'T', summary: 'In short', version: '1', license: { name: 'P', identifier: 'LicenseRef-P' } },
      }),
    );
    expect(document.info).toEqual({
      title: 'T',
      'x-summary': 'In short',
      version: '1',
      license: { name: 'P', 'x-identifier': 'LicenseRef-P' },
    });
    expect(losses).toEqual([
      { kind: 'info.summary', at: '#/info/summary', to: 'info.x-summary' },
      { kind: 'license.identifier', at: '#/info/license/identifier', to: 'info.license.x-identifier' },
    ]);
  });

  it('moves webhooks to x-webhooks, in place, converting their schemas and references to them', () => {
    const { document, losses } = convert(
      documentWith({
        webhooks: {
          done: {
            post: {
              requestBody: { content: { 'application/json': { schema: { type: ['object', 'null'] } } } },
              responses: { 204: { description: 'ok' } },
            },
          },
          again: { $ref: '#/webhooks/done' },
        },
        components: {},
      }),
    );
    expect(Object.keys(document)).toEqual(['openapi', 'info', 'paths', 'x-webhooks', 'components']);
    expect(document['x-webhooks'].done.post.requestBody.content['application/json'].schema).toEqual({
      type: 'object',
      nullable: true,
    });
    expect(document['x-webhooks'].again).toEqual({ $ref: '#/x-webhooks/done' });
    expect(kinds(losses)).toEqual(['webhooks']);
  });

  it('drops the default jsonSchemaDialect, keeps another as an extension, and gives 3.0 the paths it requires', () => {
    const base = { openapi: '3.1.0', info: { title: 'T', version: '1' }, webhooks: {} };
    expect(
      convert({ ...base, jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base' }).document,
    ).not.toHaveProperty('jsonSchemaDialect');
    const other = convert({ ...base, jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema' });
    expect(other.document['x-json-schema-dialect']).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(other.document.paths).toEqual({});
    expect(kinds(other.losses)).toEqual(['webhooks', 'jsonSchemaDialect']);
  });

  it('inlines path items of components.pathItems, which 3.0 does not have', () => {
    const item = { get: { responses: { 200: { description: 'ok' } } } };
    const { document, losses } = convert(
      documentWith({
        paths: { '/a': { $ref: '#/components/pathItems/A', summary: 'A' } },
        components: { pathItems: { A: item, Unused: item } },
      }),
    );
    expect(document.paths['/a']).toEqual({ ...item, summary: 'A' });
    expect(document.components).toEqual({ 'x-path-items': { Unused: item } });
    expect(losses).toEqual([
      { kind: 'components.pathItems', at: '#/components/pathItems/Unused', to: 'components.x-path-items' },
    ]);
  });

  it('drops the summary and description beside a $ref outside schemas (3.0 ignores them), and says so', () => {
    const { document, losses } = convert(
      documentWith({
        paths: {
          '/a': {
            get: {
              parameters: [{ $ref: '#/components/parameters/P', description: 'Here' }],
              responses: { 200: { description: 'ok' } },
            },
          },
        },
        components: { parameters: { P: { name: 'p', in: 'query', schema: { type: 'string' } } } },
      }),
    );
    expect(document.paths['/a'].get.parameters).toEqual([{ $ref: '#/components/parameters/P' }]);
    expect(losses).toEqual([
      { kind: '$ref siblings', at: '#/paths/~1a/get/parameters/0/description', to: 'dropped (3.0 ignores them)' },
    ]);
  });

  it('copies examples, extensions, link values and defaults as they are: data is not a schema', () => {
    const data = { type: ['string', 'null'], const: 1, examples: [1, 2], $ref: 'x', if: {} };
    const { document, losses } = convert(
      documentWith({
        'x-top': data,
        paths: {
          '/a': {
            get: {
              'x-operation': data,
              parameters: [
                {
                  name: 'p',
                  in: 'query',
                  schema: { type: 'object', default: data, enum: [data], example: data },
                  example: data,
                  examples: { E: { value: data } },
                },
              ],
              responses: {
                200: {
                  description: 'ok',
                  content: {
                    'application/json': {
                      schema: { type: 'object', 'x-s': data },
                      example: data,
                      examples: { E: { summary: 'e', value: data } },
                    },
                  },
                  links: { L: { operationId: 'x', parameters: { p: data }, requestBody: data } },
                },
              },
            },
          },
        },
      }),
    );
    const operation = document.paths['/a'].get;
    expect(document['x-top']).toEqual(data);
    expect(operation['x-operation']).toEqual(data);
    expect(operation.parameters[0]).toEqual({
      name: 'p',
      in: 'query',
      schema: { type: 'object', default: data, enum: [data], example: data },
      example: data,
      examples: { E: { value: data } },
    });
    const response = operation.responses[200];
    expect(response.content['application/json']).toEqual({
      schema: { type: 'object', 'x-s': data },
      example: data,
      examples: { E: { summary: 'e', value: data } },
    });
    expect(response.links.L).toEqual({ operationId: 'x', parameters: { p: data }, requestBody: data });
    expect(losses).toEqual([]);
  });

  it('refuses a field that OpenAPI 3.0 does not have, naming it and its place', () => {
    const withField = (operation: Json) =>
      documentWith({ paths: { '/a': { get: { responses: { 200: { description: 'ok' } }, ...operation } } } });
    expect(() => convert(withField({ idempotent: true }))).toThrow(
      /#\/paths\/~1a\/get\/idempotent: "idempotent" is not a field of an OpenAPI 3\.0 Operation Object\. Teach build\/lib\/openapi-30\.ts/,
    );
    expect(() => convert(documentWith({ paths: { '/a': { query: { responses: {} } } } }))).toThrow(
      /#\/paths\/~1a\/query: "query" is not a field of an OpenAPI 3\.0 PathItem Object/,
    );
    expect(() => convert(documentWith({ components: { securitySchemes: { M: { type: 'mutualTLS' } } } }))).toThrow(
      /#\/components\/securitySchemes\/M\/type: OpenAPI 3\.0 has no security scheme of type "mutualTLS"/,
    );
    expect(() => convert(documentWith({ paths: { '/a': { get: {} } } }))).toThrow(
      /#\/paths\/~1a\/get: OpenAPI 3\.0 requires responses/,
    );
    expect(() =>
      convert(
        documentWith({
          paths: { '/a': { get: { responses: { 299: { description: 'ok' }, ok: { description: 'ok' } } } } },
        }),
      ),
    ).toThrow(/"ok" is not a key of an OpenAPI 3\.0 Responses Object/);
  });

  it('refuses a reference to another file: it converts bundled documents', () => {
    expect(() => convertSchema({ $ref: 'Other.yaml' })).toThrow(
      /#\/components\/schemas\/S\/\$ref: only local references/,
    );
  });
});

describe('the known values of an open enum', () => {
  const open = (...known: string[]) => ({
    type: 'string',
    anyOf: [{ type: 'string', enum: known }, { type: 'string' }],
  });

  it('are a closed string enum of their own, <Schema>KnownValue, that nothing refers to', () => {
    const { schemas } = convertSchema(open('a', 'b'));
    expect(schemas.SKnownValue).toEqual({
      type: 'string',
      description: expect.stringContaining('The known values of `S`, an open enum'),
      enum: ['a', 'b'],
    });
    expect(JSON.stringify(schemas)).not.toContain('#/components/schemas/SKnownValue');
    // The open enum itself stays a string that takes any value.
    expect(schemas.S).not.toHaveProperty('enum');
  });

  it("of a property are <Schema><Property>KnownValue; deeper, a word per property, Item for items and Value for a map's values", () => {
    const { schemas } = convertSchema({
      type: 'object',
      properties: {
        error: open('E'),
        next_action: { allOf: [{ type: 'object', properties: { 'status-code': open('c') } }] },
        steps: { type: 'array', items: open('i') },
        by_name: { type: 'object', additionalProperties: open('v') },
      },
    });
    expect(Object.keys(schemas).filter((name) => name.endsWith('KnownValue'))).toEqual([
      'SErrorKnownValue',
      'SNextActionStatusCodeKnownValue',
      'SStepsItemKnownValue',
      'SByNameValueKnownValue',
    ]);
    expect(schemas.S.properties.error['x-known-values']).toBe('SErrorKnownValue');
    expect(schemas.SErrorKnownValue.description).toContain('The known values of `S.error`');
    expect(schemas.SStepsItemKnownValue.description).toContain('The known values of `S.steps[]`');
  });

  it("of a nullable reference to an open enum are that open enum's, named once", () => {
    const { schemas } = convertSchema(
      {
        type: 'object',
        properties: { status: { anyOf: [{ $ref: '#/components/schemas/Status' }, { type: 'null' }] } },
      },
      { Status: open('a', 'b') },
    );
    expect(schemas.S.properties.status['x-known-values']).toBe('StatusKnownValue');
    expect(Object.keys(schemas)).toEqual(['S', 'Status', 'StatusKnownValue']);
  });

  it('are refused a name the document already has, a name two other lists would share, or no name at all', () => {
    expect(() => convertSchema(open('a'), { SKnownValue: { type: 'string' } })).toThrow(
      /#\/components\/schemas\/S: its known values would be the schema SKnownValue, which the document already has/,
    );
    expect(() => convertSchema({ type: 'object', properties: { a_b: open('x'), 'a-b': open('y') } })).toThrow(
      /the known values of #\/components\/schemas\/S\/properties\/a_b are named SABKnownValue too, with other values/,
    );
    const get = {
      parameters: [{ name: 'q', in: 'query', schema: open('a') }],
      responses: { 200: { description: 'ok' } },
    };
    expect(() => convert(documentWith({ paths: { '/a': { get } } }))).toThrow(
      /#\/paths\/~1a\/get\/parameters\/0\/schema: an open enum outside a named schema's properties/,
    );
    expect(() => convertSchema({ not: open('a') })).toThrow(/an open enum outside a named schema's properties/);
  });
});

describe('a schema', () => {
  it('that is an open enum (a string enum or any string) is a string with its known values in x-extensible-enum, never a closed enum', () => {
    const open = {
      type: 'string',
      description: 'State.',
      anyOf: [
        { type: 'string', enum: ['a', 'b'] },
        { type: 'string', description: 'Another.' },
      ],
    };
    const { schema, losses } = convertSchema(open);
    expect(schema).toEqual({
      type: 'string',
      description:
        'State.\n\nKnown values: `a`, `b`. Other values may appear: read it as a string. ' +
        'The schema `SKnownValue` lists the known ones.\n',
      'x-extensible-enum': ['a', 'b'],
      'x-known-values': 'SKnownValue',
    });
    expect(losses).toEqual([
      { kind: 'open enum', at: '#/components/schemas/S/anyOf', to: expect.stringContaining('x-extensible-enum') },
    ]);
    // Not an open enum: two enums, a branch with more than a type, a branch of another type.
    for (const anyOf of [
      [
        { type: 'string', enum: ['a'] },
        { type: 'string', enum: ['b'] },
      ],
      [
        { type: 'string', enum: ['a'] },
        { type: 'string', pattern: '^x' },
      ],
      [{ type: 'string', enum: ['a'] }, { type: 'number' }],
    ])
      expect(convertSchema({ anyOf }).schema.anyOf).toHaveLength(2);
  });

  it('with a type and null is nullable', () => {
    const { schema, losses } = convertSchema({ description: 'd', type: ['string', 'null'], enum: ['a', null] });
    expect(schema).toEqual({ description: 'd', type: 'string', nullable: true, enum: ['a', null] });
    expect(Object.keys(schema)).toEqual(['description', 'type', 'nullable', 'enum']);
    expect(losses).toEqual([]);
  });

  it('with several types is an anyOf of one branch per type, each nullable when null is allowed', () => {
    expect(convertSchema({ type: ['string', 'object'], description: 'd' }).schema).toEqual({
      anyOf: [{ type: 'string' }, { type: 'object' }],
      description: 'd',
    });
    expect(convertSchema({ type: ['array', 'object', 'null'] }).schema).toEqual({
      anyOf: [
        { type: 'array', nullable: true },
        { type: 'object', nullable: true },
      ],
    });
    // An anyOf already there stays; the types join it through allOf.
    expect(convertSchema({ type: ['string', 'integer'], anyOf: [{ minLength: 1 }, { minimum: 1 }] }).schema).toEqual({
      allOf: [{ anyOf: [{ type: 'string' }, { type: 'integer' }] }],
      anyOf: [{ minLength: 1 }, { minimum: 1 }],
    });
  });

  it('that is a type array of scalars reports the anyOf of scalar types at its type, as the 3.1 source says', () => {
    const to = 'no type, with the branches in x-any-of and the description';
    expect(convertSchema({ type: ['string', 'number'] }).losses).toEqual([
      { kind: 'anyOf of scalar types', at: '#/components/schemas/S/type', to },
    ]);
    const inProperty = convertSchema({ type: 'object', properties: { fee: { type: ['integer', 'boolean', 'null'] } } });
    const at = '#/components/schemas/S/properties/fee/type';
    expect(inProperty.losses).toEqual([{ kind: 'anyOf of scalar types', at, to }]);
    const branches = [
      { type: 'integer', nullable: true },
      { type: 'boolean', nullable: true },
    ];
    expect(inProperty.schema.properties.fee['x-any-of']).toEqual(branches);
  });

  it('that is an anyOf of scalars of different types (a string or a number) has no type, its branches in x-any-of', () => {
    const fee = {
      description: 'Fee.',
      anyOf: [
        { type: 'string', description: 'Text.' },
        { type: 'number', format: 'double' },
      ],
    };
    const { schema, losses } = convertSchema(fee);
    expect(schema).toEqual({
      description:
        'Fee.\n\nIt is a string or a number, as `x-any-of` says: OpenAPI 3.0 generators read an anyOf of scalar types badly, so the companion states no type. Read the value as it comes.\n',
      'x-any-of': fee.anyOf,
    });
    expect(losses).toEqual([
      {
        kind: 'anyOf of scalar types',
        at: '#/components/schemas/S/anyOf',
        to: 'no type, with the branches in x-any-of and the description',
      },
    ]);
    // A type array of scalars says the same, nullable branches and an extension beside included.
    expect(convertSchema({ type: ['integer', 'boolean', 'null'], 'x-k': 1 }).schema).toEqual({
      'x-k': 1,
      description: expect.stringMatching(/^It is an integer or a boolean, as `x-any-of` says/),
      'x-any-of': [
        { type: 'integer', nullable: true },
        { type: 'boolean', nullable: true },
      ],
    });
    // Not such a union: one branch, two of one type, a branch with a rule or an enum, a branch not scalar,
    // a keyword beside that constrains, or an x-any-of already there.
    for (const schema of [
      { anyOf: [{ type: 'string' }] },
      { anyOf: [{ type: 'string' }, { type: 'string', format: 'date' }] },
      { anyOf: [{ type: 'string', minLength: 1 }, { type: 'number' }] },
      { anyOf: [{ type: 'string', enum: ['a'] }, { type: 'number' }] },
      { anyOf: [{ type: 'string' }, { type: 'array' }] },
      { anyOf: [{ type: 'string' }, { $ref: '#/components/schemas/T' }] },
      { anyOf: [{ type: 'string' }, { type: 'number' }], maxLength: 3 },
      { anyOf: [{ type: 'string' }, { type: 'number' }], 'x-any-of': [] },
    ]) {
      const { schema: out, losses: none } = convertSchema(schema, { T: { type: 'number' } });
      expect(out.anyOf).toHaveLength(schema.anyOf.length);
      expect(kinds(none)).not.toContain('anyOf of scalar types');
    }
    // Annotations beside are kept.
    const annotated = convertSchema({
      title: 't',
      example: '1',
      default: '0',
      deprecated: true,
      readOnly: true,
      anyOf: [{ type: 'string' }, { type: 'number' }],
    }).schema;
    expect(annotated).toMatchObject({ title: 't', example: '1', default: '0', deprecated: true, readOnly: true });
    expect(annotated).not.toHaveProperty('anyOf');
  });

  it('of null alone is a nullable type whose one value is null, reported', () => {
    const { schema, losses } = convertSchema({ type: 'null' });
    expect(schema).toEqual({ type: 'string', nullable: true, enum: [null] });
    expect(losses).toEqual([
      { kind: 'type: null', at: '#/components/schemas/S/type', to: 'type: string, nullable: true, enum: [null]' },
    ]);
  });

  it('with a oneOf of a $ref and null is nullable beside allOf: [$ref], with the type of its target', () => {
    const { schema, losses } = convertSchema(
      { description: 'Page or null.', oneOf: [{ $ref: '#/components/schemas/Page' }, { type: 'null' }] },
      { Page: { type: 'object', properties: {}, additionalProperties: false } },
    );
    expect(schema).toEqual({
      description: 'Page or null.',
      type: 'object',
      nullable: true,
      allOf: [{ $ref: '#/components/schemas/Page' }],
    });
    expect(losses).toEqual([
      {
        kind: 'null in oneOf',
        at: '#/components/schemas/S/oneOf',
        to: 'type: object, nullable: true beside allOf: [the other branch]',
      },
    ]);
  });

  it('with an anyOf of a $ref to an open enum and null is that open enum, inline, as a nullable string', () => {
    const { schema, losses } = convertSchema(
      { description: 'Status, or null.', anyOf: [{ $ref: '#/components/schemas/Status' }, { type: 'null' }] },
      {
        Status: {
          type: 'string',
          description: 'A status.',
          anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'string' }],
        },
      },
    );
    // A strict 3.0 validator takes the null: nullable stands beside the type itself, not an allOf.
    expect(schema).toEqual({
      description:
        'Status, or null.\n\nKnown values: `a`, `b`. Other values may appear: read it as a string. ' +
        'The schema `StatusKnownValue` lists the known ones.\n',
      type: 'string',
      'x-extensible-enum': ['a', 'b'],
      'x-known-values': 'StatusKnownValue',
      nullable: true,
    });
    expect(losses).toContainEqual({
      kind: 'null in anyOf',
      at: '#/components/schemas/S/anyOf',
      to: 'the open enum Status inlined as a nullable string',
    });
  });

  it('with a null branch and one typed inline branch is that branch, nullable, exactly', () => {
    const { schema, losses } = convertSchema({
      description: 'd',
      anyOf: [
        { type: 'string', minLength: 1 },
        { type: 'null', description: 'none' },
      ],
    });
    expect(schema).toEqual({ description: 'd', type: 'string', minLength: 1, nullable: true });
    expect(losses).toEqual([]);
  });

  it('with a null branch beside several branches of one type is nullable beside them', () => {
    const { schema, losses } = convertSchema(
      { oneOf: [{ $ref: '#/components/schemas/A' }, { $ref: '#/components/schemas/B' }, { type: 'null' }] },
      { A: { allOf: [{ $ref: '#/components/schemas/B' }] }, B: { type: ['object', 'null'] } },
    );
    expect(schema).toEqual({
      type: 'object',
      nullable: true,
      oneOf: [{ $ref: '#/components/schemas/A' }, { $ref: '#/components/schemas/B' }],
    });
    expect(kinds(losses)).toEqual(['null in oneOf']);
  });

  it('with a null branch beside branches of different types tells the null in its description only', () => {
    const { schema, losses } = convertSchema({
      description: 'd',
      oneOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }],
    });
    expect(schema).toEqual({
      description: 'd\n\nIt may also be null: OpenAPI 3.0 cannot say so here.\n',
      oneOf: [{ type: 'string' }, { type: 'integer' }],
    });
    expect(losses).toEqual([
      { kind: 'null in oneOf', at: '#/components/schemas/S/oneOf', to: expect.stringMatching(/^the description/) },
    ]);
  });

  it('drops a null branch that its own type excludes', () => {
    expect(convertSchema({ type: 'object', oneOf: [{ required: ['a'] }, { type: 'null' }] })).toEqual({
      schema: { type: 'object', oneOf: [{ required: ['a'] }] },
      schemas: expect.anything(),
      losses: [],
    });
  });

  it('with const has an enum of that one value', () => {
    expect(convertSchema({ type: 'string', const: 'a' }).schema).toEqual({ type: 'string', enum: ['a'] });
    expect(convertSchema({ enum: ['a', 'b'], const: 'b' }).schema).toEqual({ enum: ['b'] });
    expect(convertSchema({ const: false }).schema).toEqual({ enum: [false] });
    expect(convertSchema({ type: ['integer', 'null'], const: null }).schema).toEqual({
      type: 'integer',
      nullable: true,
      enum: [null],
    });
  });

  it('with examples has the first as its example, and keeps them all in x-examples when there are more', () => {
    expect(convertSchema({ type: 'string', examples: ['a'] })).toMatchObject({
      schema: { type: 'string', example: 'a' },
      losses: [],
    });
    const { schema, losses } = convertSchema({ type: 'string', examples: ['a', 'b'] });
    expect(schema).toEqual({ type: 'string', example: 'a', 'x-examples': ['a', 'b'] });
    expect(losses).toEqual([
      { kind: 'examples', at: '#/components/schemas/S/examples', to: 'example (the first) and x-examples (all 2)' },
    ]);
  });

  it("with a numeric exclusive bound has 3.0's boolean form, keeping the stricter bound", () => {
    expect(convertSchema({ type: 'number', exclusiveMinimum: 0 }).schema).toEqual({
      type: 'number',
      minimum: 0,
      exclusiveMinimum: true,
    });
    expect(convertSchema({ type: 'number', minimum: 0, exclusiveMinimum: 0 }).schema).toEqual({
      type: 'number',
      minimum: 0,
      exclusiveMinimum: true,
    });
    expect(convertSchema({ type: 'number', minimum: 5, exclusiveMinimum: 0 }).schema).toEqual({
      type: 'number',
      minimum: 5,
    });
    expect(convertSchema({ type: 'number', exclusiveMaximum: 10, maximum: 20 }).schema).toEqual({
      type: 'number',
      maximum: 10,
      exclusiveMaximum: true,
    });
    expect(() => convertSchema({ type: 'number', exclusiveMinimum: true })).toThrow(
      /exclusiveMinimum is a number in 3\.1/,
    );
  });

  it('with siblings beside $ref has them beside allOf: [$ref], where 3.0 reads them', () => {
    const { schema, losses } = convertSchema(
      { $ref: '#/components/schemas/K', description: 'd', default: 'a' },
      { K: { type: 'string' } },
    );
    expect(schema).toEqual({ allOf: [{ $ref: '#/components/schemas/K' }], description: 'd', default: 'a' });
    expect(
      convertSchema(
        { description: 'd', $ref: '#/components/schemas/K', allOf: [{ minLength: 1 }] },
        { K: { type: 'string' } },
      ).schema,
    ).toEqual({ description: 'd', allOf: [{ $ref: '#/components/schemas/K' }, { minLength: 1 }] });
    expect(convertSchema({ $ref: '#/components/schemas/K' }, { K: { type: 'string' } }).schema).toEqual({
      $ref: '#/components/schemas/K',
    });
    expect(losses).toEqual([]);
  });

  it('as a boolean is an object schema', () => {
    expect(convertSchema({ type: 'object', properties: { a: true, b: false } }).schema).toEqual({
      type: 'object',
      properties: { a: {}, b: { not: {} } },
    });
  });

  it('with if/then/else keeps them as extensions, with the rule in its description', () => {
    const condition = { description: 'A free trial.', required: ['trial'] };
    const { schema, losses } = convertSchema({
      type: 'object',
      description: 'Body.',
      if: condition,
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's own if/then/else keywords
      then: { description: 'Total is 0.', properties: { total: { const: 0 } } },
      else: { properties: { total: { minimum: 1 } } },
    });
    expect(schema).toEqual({
      type: 'object',
      description:
        'Body.\n\nOpenAPI 3.0 cannot state this rule, kept in JSON Schema 2020-12 in `x-if`, `x-then` and `x-else`:\n' +
        '- If the value matches `x-if` (A free trial), it must also match `x-then` (Total is 0); otherwise it must match `x-else` (`{"properties":{"total":{"minimum":1}}}`).\n',
      'x-if': condition,
      'x-then': { description: 'Total is 0.', properties: { total: { const: 0 } } },
      'x-else': { properties: { total: { minimum: 1 } } },
    });
    expect(losses).toEqual([
      { kind: 'if', at: '#/components/schemas/S/if', to: 'x-if and the description' },
      { kind: 'then', at: '#/components/schemas/S/then', to: 'x-then and the description' },
      { kind: 'else', at: '#/components/schemas/S/else', to: 'x-else and the description' },
    ]);
  });

  it('with dependentSchemas and dependentRequired keeps them as extensions, with each rule in its description', () => {
    const { schema, losses } = convertSchema({
      type: 'object',
      dependentSchemas: {
        token: { description: 'tokenize must be false.', properties: { tokenize: { const: false } } },
      },
      dependentRequired: { a: ['b', 'c'] },
    });
    expect(schema.description).toBe(
      'OpenAPI 3.0 cannot state these rules, kept in JSON Schema 2020-12 in `x-dependent-schemas` and `x-dependent-required`:\n' +
        '- When `token` is present: tokenize must be false.\n- When `a` is present, `b`, `c` are required too.\n',
    );
    expect(schema['x-dependent-schemas']).toEqual({
      token: { description: 'tokenize must be false.', properties: { tokenize: { const: false } } },
    });
    expect(schema['x-dependent-required']).toEqual({ a: ['b', 'c'] });
    expect(kinds(losses)).toEqual(['dependentSchemas', 'dependentRequired']);
  });

  it('with the other 3.1-only keywords keeps each as an extension, loosening what 3.0 would forbid', () => {
    const { schema, losses } = convertSchema({
      type: 'object',
      patternProperties: { '^x_': { type: 'string' } },
      additionalProperties: false,
      propertyNames: { maxLength: 8 },
      unevaluatedProperties: false,
      $comment: 'for maintainers',
      properties: {
        pair: {
          type: 'array',
          prefixItems: [{ type: 'string' }, { type: 'integer' }],
          items: false,
          contains: { type: 'integer' },
          minContains: 1,
        },
        blob: { type: 'string', contentEncoding: 'base64' },
        doc: { type: 'string', contentMediaType: 'application/xml', contentEncoding: 'base32' },
      },
    });
    expect(schema.additionalProperties).toEqual({ type: 'string' });
    expect(schema['x-pattern-properties']).toEqual({ '^x_': { type: 'string' } });
    expect(schema['x-property-names']).toEqual({ maxLength: 8 });
    expect(schema['x-unevaluated-properties']).toBe(false);
    expect(schema['x-comment']).toBe('for maintainers');
    expect(schema.description).toContain('- A property whose name matches `^x_` must match: `{"type":"string"}`.');
    expect(schema.properties.pair).toMatchObject({
      type: 'array',
      items: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
      maxItems: 2,
      'x-prefix-items': [{ type: 'string' }, { type: 'integer' }],
      'x-contains': { type: 'integer' },
      'x-min-contains': 1,
    });
    expect(schema.properties.pair.description).toContain('- At least 1 item must match: `{"type":"integer"}`.');
    expect(schema.properties.blob).toEqual({ type: 'string', format: 'byte' });
    expect(schema.properties.doc).toMatchObject({
      type: 'string',
      'x-content-media-type': 'application/xml',
      'x-content-encoding': 'base32',
    });
    expect(kinds(losses).sort()).toEqual([
      '$comment',
      'contains',
      'contentEncoding',
      'contentMediaType',
      'minContains',
      'patternProperties',
      'prefixItems',
      'propertyNames',
      'unevaluatedProperties',
    ]);
  });

  it('refuses a keyword it does not know, and those it cannot restate, naming each and its place', () => {
    expect(() =>
      convertSchema({ type: 'object', properties: { a: { type: 'string', deprecatedSince: '2' } } }),
    ).toThrow(
      /#\/components\/schemas\/S\/properties\/a\/deprecatedSince: "deprecatedSince" is not a keyword of an OpenAPI 3\.0 Schema Object, nor one the converter restates\. Teach/,
    );
    expect(() => convertSchema({ $defs: { A: {} } })).toThrow(/\$defs has no OpenAPI 3\.0 equivalent/);
    expect(() => convertSchema({ $dynamicRef: '#meta' })).toThrow(/\$dynamicRef has no OpenAPI 3\.0 equivalent/);
    expect(() => convertSchema({ type: 'string', nullable: true })).toThrow(/nullable is OpenAPI 3\.0's keyword/);
    expect(() => convertSchema({ type: 'array', items: [{ type: 'string' }] })).toThrow(/write prefixItems/);
    expect(() => convertSchema({ type: 'object', if: {}, 'x-if': {} })).toThrow(/already has x-if/);
  });
});

describe('schemas wherever they stand', () => {
  const nullable = { type: ['string', 'null'], const: 'a' };
  const converted = { type: 'string', nullable: true, enum: ['a'] };
  const ok = {
    200: {
      description: 'ok',
      headers: { H: { schema: nullable } },
      content: { 'application/json': { schema: { type: 'array', items: nullable } } },
    },
  };
  const { document } = convert(
    documentWith({
      paths: {
        '/a': {
          parameters: [{ name: 'p', in: 'query', schema: nullable }],
          post: {
            parameters: [{ name: 'q', in: 'query', content: { 'application/json': { schema: nullable } } }],
            requestBody: {
              content: {
                'multipart/form-data': {
                  schema: { type: 'object', properties: { f: nullable } },
                  encoding: { f: { headers: { E: { schema: nullable } } } },
                },
              },
            },
            responses: ok,
            callbacks: {
              done: {
                '{$request.body#/url}': {
                  post: { requestBody: { content: { 'application/json': { schema: nullable } } }, responses: ok },
                },
              },
            },
          },
        },
      },
      webhooks: {
        w: {
          post: { requestBody: { content: { 'application/json': { schema: { allOf: [nullable] } } } }, responses: ok },
        },
      },
      components: {
        schemas: {
          Nested: {
            type: 'object',
            properties: { a: { type: 'object', properties: { b: nullable } } },
            additionalProperties: nullable,
            allOf: [nullable],
            anyOf: [nullable],
            oneOf: [{ type: 'array', items: { not: nullable } }],
          },
        },
        parameters: { P: { name: 'p', in: 'header', schema: nullable } },
        requestBodies: { B: { content: { 'application/json': { schema: nullable } } } },
        responses: { R: ok[200] },
        headers: { H: { schema: nullable } },
        callbacks: { C: { '{$url}': { get: { responses: ok } } } },
      },
    }),
  );

  it.each([
    ["a path item's parameter", ['paths', '/a', 'parameters', 0, 'schema']],
    [
      "an operation's parameter content",
      ['paths', '/a', 'post', 'parameters', 0, 'content', 'application/json', 'schema'],
    ],
    [
      'a request body property',
      ['paths', '/a', 'post', 'requestBody', 'content', 'multipart/form-data', 'schema', 'properties', 'f'],
    ],
    [
      'an encoding header',
      [
        'paths',
        '/a',
        'post',
        'requestBody',
        'content',
        'multipart/form-data',
        'encoding',
        'f',
        'headers',
        'E',
        'schema',
      ],
    ],
    ['a response header', ['paths', '/a', 'post', 'responses', '200', 'headers', 'H', 'schema']],
    [
      'array items in a response',
      ['paths', '/a', 'post', 'responses', '200', 'content', 'application/json', 'schema', 'items'],
    ],
    [
      'a callback',
      [
        'paths',
        '/a',
        'post',
        'callbacks',
        'done',
        '{$request.body#/url}',
        'post',
        'requestBody',
        'content',
        'application/json',
        'schema',
      ],
    ],
    ['a webhook', ['x-webhooks', 'w', 'post', 'requestBody', 'content', 'application/json', 'schema', 'allOf', 0]],
    ['a nested property', ['components', 'schemas', 'Nested', 'properties', 'a', 'properties', 'b']],
    ['additionalProperties', ['components', 'schemas', 'Nested', 'additionalProperties']],
    ['allOf', ['components', 'schemas', 'Nested', 'allOf', 0]],
    ['anyOf', ['components', 'schemas', 'Nested', 'anyOf', 0]],
    ['not, inside items, inside oneOf', ['components', 'schemas', 'Nested', 'oneOf', 0, 'items', 'not']],
    ['components.parameters', ['components', 'parameters', 'P', 'schema']],
    ['components.requestBodies', ['components', 'requestBodies', 'B', 'content', 'application/json', 'schema']],
    ['components.responses', ['components', 'responses', 'R', 'headers', 'H', 'schema']],
    ['components.headers', ['components', 'headers', 'H', 'schema']],
    [
      'components.callbacks',
      [
        'components',
        'callbacks',
        'C',
        '{$url}',
        'get',
        'responses',
        '200',
        'content',
        'application/json',
        'schema',
        'items',
      ],
    ],
  ])('in %s', (_place, path) => {
    expect((path as Array<string | number>).reduce((node: Json, key) => node?.[key], document)).toEqual(converted);
  });

  it('make a document valid against the official OpenAPI 3.0 schema', async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors).toBeUndefined();
    expect([result.valid, validator.version]).toEqual([true, '3.0']);
  });
});
