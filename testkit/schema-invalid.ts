// Invalid input derived from the document's own schemas: for a JSON Schema, the values it forbids
// (a wrong type, a number out of its range, a broken format, a value outside its enum, a string
// past its maxLength); for an object, a required field dropped, a field made invalid, an unknown
// field where none is allowed, and the same one level down. The fuzz corpus mixes these with its
// hand-written hostile values, so that each operation meets the mistakes its own schema names.
import fc from 'fast-check';

export interface JsonSchema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

const typesOf = (schema: JsonSchema): string[] => {
  if (schema.type) return Array.isArray(schema.type) ? schema.type : [schema.type];
  const branches = schema.anyOf ?? schema.oneOf;
  return branches ? branches.flatMap(typesOf) : [];
};

/** One value of each JSON type; those the schema's types allow are left out. */
const SAMPLE_OF_TYPE: Record<string, unknown> = {
  string: 'text',
  integer: 7,
  number: 7.5,
  boolean: true,
  null: null,
  array: [1],
  object: { a: 1 },
};

const BAD_FORMAT: Record<string, string[]> = {
  email: ['not-an-email', '@', 'a@'],
  uri: ['not a uri', '//', 'http://'],
  url: ['not a url'],
  'date-time': ['2026-13-45T99:00:00Z', 'yesterday', '2026-11-23'],
  date: ['2026-02-30', '23/11/2026', '2026-11-23T00:00:00Z'],
  uuid: ['not-a-uuid', '7c9e6679-7425-40de-944b', 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz'],
  int64: [],
};

/** The values a schema forbids at its own level (not inside its properties or items). */
export function forbiddenValues(schema: JsonSchema): unknown[] {
  const types = typesOf(schema);
  const values: unknown[] = [];
  if (types.length > 0) {
    const allowed = new Set(types.includes('number') ? [...types, 'integer'] : types);
    values.push(
      ...Object.entries(SAMPLE_OF_TYPE)
        .filter(([type]) => !allowed.has(type))
        .map(([, value]) => value),
    );
    if (allowed.has('integer') && !allowed.has('number')) values.push(1.5, '12');
  }
  if (schema.minimum !== undefined) values.push(schema.minimum - 1, -1e308);
  if (schema.exclusiveMinimum !== undefined) values.push(schema.exclusiveMinimum);
  if (schema.maximum !== undefined) values.push(schema.maximum + 1, 1e308);
  if (schema.exclusiveMaximum !== undefined) values.push(schema.exclusiveMaximum);
  if (types.includes('integer')) values.push(2 ** 63, -(2 ** 63) - 1e4);
  if (schema.maxLength !== undefined) values.push('x'.repeat(schema.maxLength + 1));
  if (schema.minLength) values.push('');
  if (schema.format && BAD_FORMAT[schema.format]) values.push(...BAD_FORMAT[schema.format]!);
  if (schema.pattern) values.push('\u0000 no pattern matches this');
  if (schema.enum)
    values.push('NOT_IN_ENUM', `${String(schema.enum.find((v) => typeof v === 'string') ?? 'x').toUpperCase()}_`);
  if (schema.minItems) values.push([]);
  if (schema.maxItems !== undefined && schema.items)
    values.push(
      Array.from({ length: schema.maxItems + 1 }, () => SAMPLE_OF_TYPE[typesOf(schema.items!)[0] ?? 'string']),
    );
  return values;
}

type Body = Record<string, unknown>;
export type BodyMutation = (body: Body) => Body;

const isObjectSchema = (schema: JsonSchema | undefined): boolean =>
  !!schema && (typesOf(schema).includes('object') || !!schema.properties);
const isPlainObject = (value: unknown): value is Body =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Mutations of a valid object that its schema forbids: drop a required field, give a field a
 * forbidden value, add an unknown field to a closed object, or do one of these inside a nested
 * object or the first element of an array of objects. Empty when the schema has no properties.
 */
export function schemaMutations(schema: JsonSchema, depth = 2): fc.Arbitrary<BodyMutation> | undefined {
  const properties = Object.entries(schema.properties ?? {});
  const options: Array<fc.Arbitrary<BodyMutation>> = [];
  const required = (schema.required ?? []).filter((name) => schema.properties?.[name]);
  if (required.length > 0) {
    options.push(
      fc
        .constantFrom(...required)
        .map((name) => (body: Body) => Object.fromEntries(Object.entries(body).filter(([k]) => k !== name))),
    );
  }
  const withForbidden = properties
    .map(([name, property]) => ({ name, values: forbiddenValues(property) }))
    .filter(({ values }) => values.length > 0);
  if (withForbidden.length > 0) {
    options.push(
      fc
        .constantFrom(...withForbidden)
        .chain(({ name, values }) =>
          fc.constantFrom(...values).map((value) => (body: Body) => ({ ...body, [name]: value })),
        ),
    );
  }
  if (schema.additionalProperties === false) {
    options.push(
      fc
        .string({ minLength: 1, maxLength: 10 })
        .filter((k) => !schema.properties?.[k])
        .map((name) => (body: Body) => ({ ...body, [name]: 'unexpected' })),
    );
  }
  if (depth > 0) {
    for (const [name, property] of properties) {
      const nested = isObjectSchema(property) ? property : isObjectSchema(property.items) ? property.items : undefined;
      const inner = nested && schemaMutations(nested, depth - 1);
      if (!inner) continue;
      options.push(
        inner.map((mutate: BodyMutation) => (body: Body) => {
          const value = body[name];
          if (isPlainObject(value)) return { ...body, [name]: mutate(value) };
          if (Array.isArray(value) && isPlainObject(value[0]))
            return { ...body, [name]: [mutate(value[0]), ...value.slice(1)] };
          return body;
        }),
      );
    }
  }
  return options.length > 0 ? fc.oneof(...options) : undefined;
}

/** A query value its parameter's schema forbids, as the text a URL carries. */
export function forbiddenQueryValues(schema: JsonSchema): string[] {
  const values = forbiddenValues(schema)
    .filter((v) => v !== null && typeof v !== 'object')
    .map(String);
  return values.length > 0 ? values : ['\u0000'];
}
