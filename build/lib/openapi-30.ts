// The OpenAPI 3.0.3 companion of the contract, for the generators and tools that read OpenAPI 3.1
// partly or not at all. One pure function: the bundled OpenAPI 3.1 document in, the 3.0.3
// document out, with the list of what 3.0 could not say natively (its losses).
//
// The converter knows every field of every OpenAPI 3.0 object and every keyword of a 3.0 Schema
// Object. A 3.1 construct that 3.0 lacks is restated in 3.0's terms where 3.0 has them (`type:
// [X, 'null']` is `nullable`, `const` a one-value `enum`, a numeric `exclusiveMinimum` the
// boolean form, a `$ref` with siblings an `allOf`), and otherwise kept as an `x-` extension that
// carries the original JSON, with the rule in prose in the schema's description: each such case is
// a loss. A field or keyword it does not know stops the conversion with its place in the document,
// so that a new 3.1 construct cannot slip into the companion unconverted.
//
// Values that are data rather than description (`example`, the `value` of an Example Object,
// `default`, `enum`, link parameters, every `x-` extension) are copied as they are.
import { isDeepStrictEqual } from 'node:util';
import { openEnumValues } from '../../src/contract/open-enum.ts';

/**
 * A node of the documents: JSON whose shape the converter checks as it walks (a field or keyword
 * it does not know stops it), so that its fields are read without a type of their own.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
// biome-ignore lint/suspicious/noExplicitAny: a node of a JSON document, read where the walk knows its keyword
type Json = any;
/** A JSON object of the documents: an OpenAPI object or a Schema Object. */
type JsonObject = Record<string, Json>;

/** A construct of 3.1 that 3.0 cannot say natively: what it is, its JSON pointer, and where the companion keeps it. */
export type Loss = { kind: string; at: string; to: string };

export const OPENAPI_30_VERSION = '3.0.3';

/** The dialect a 3.1 document has when it names none: its schemas convert like any others. */
const OAS_31_DIALECT = 'https://spec.openapis.org/oas/3.1/dialect/base';

/**
 * Converts a bundled OpenAPI 3.1 document (references local, `#/…`) to OpenAPI 3.0.3.
 * Returns the new document and its losses: `{kind, at, to}`, where `kind` names the 3.1 construct,
 * `at` is its JSON pointer in the 3.1 document, and `to` says where the companion keeps it.
 * Throws when the document uses a field or keyword the converter does not know.
 */
export function toOpenApi30(document: unknown): { document: JsonObject; losses: Loss[] } {
  const converter = new Converter(document);
  return { document: converter.run(), losses: converter.losses };
}

// --- The OpenAPI 3.0 objects: each field, and how its value converts ------------------------------
// COPY: a value kept as it is. A name: an object of that type. list(…), map(…): of that type.
// orRef(…): that type or a Reference Object. SCHEMA: a Schema Object.
/** The name of an OpenAPI 3.0 object type: a key of FIELDS or of PATTERNED. */
type ObjectType = string;
type Field = { copy: true } | { schema: true } | ObjectType | { list: Field } | { map: Field } | { orRef: ObjectType };
const COPY: Field = { copy: true };
const SCHEMA: Field = { schema: true };
const list = (of: Field): Field => ({ list: of });
const map = (of: Field): Field => ({ map: of });
const orRef = (type: ObjectType): Field => ({ orRef: type });

const FIELDS: Record<string, Record<string, Field>> = {
  OpenAPI: {
    openapi: COPY,
    info: 'Info',
    servers: list('Server'),
    paths: 'Paths',
    components: 'Components',
    security: COPY,
    tags: list('Tag'),
    externalDocs: 'ExternalDocs',
  },
  Info: { title: COPY, description: COPY, termsOfService: COPY, contact: 'Contact', license: 'License', version: COPY },
  Contact: { name: COPY, url: COPY, email: COPY },
  License: { name: COPY, url: COPY },
  Server: { url: COPY, description: COPY, variables: map('ServerVariable') },
  ServerVariable: { enum: COPY, default: COPY, description: COPY },
  Components: {
    schemas: map(SCHEMA),
    responses: map(orRef('Response')),
    parameters: map(orRef('Parameter')),
    examples: map(orRef('Example')),
    requestBodies: map(orRef('RequestBody')),
    headers: map(orRef('Header')),
    securitySchemes: map(orRef('SecurityScheme')),
    links: map(orRef('Link')),
    callbacks: map(orRef('Callback')),
  },
  PathItem: {
    $ref: COPY,
    summary: COPY,
    description: COPY,
    get: 'Operation',
    put: 'Operation',
    post: 'Operation',
    delete: 'Operation',
    options: 'Operation',
    head: 'Operation',
    patch: 'Operation',
    trace: 'Operation',
    servers: list('Server'),
    parameters: list(orRef('Parameter')),
  },
  Operation: {
    tags: COPY,
    summary: COPY,
    description: COPY,
    externalDocs: 'ExternalDocs',
    operationId: COPY,
    parameters: list(orRef('Parameter')),
    requestBody: orRef('RequestBody'),
    responses: 'Responses',
    callbacks: map(orRef('Callback')),
    deprecated: COPY,
    security: COPY,
    servers: list('Server'),
  },
  ExternalDocs: { description: COPY, url: COPY },
  Parameter: {
    name: COPY,
    in: COPY,
    description: COPY,
    required: COPY,
    deprecated: COPY,
    allowEmptyValue: COPY,
    style: COPY,
    explode: COPY,
    allowReserved: COPY,
    schema: SCHEMA,
    example: COPY,
    examples: map(orRef('Example')),
    content: map('MediaType'),
  },
  RequestBody: { description: COPY, content: map('MediaType'), required: COPY },
  MediaType: { schema: SCHEMA, example: COPY, examples: map(orRef('Example')), encoding: map('Encoding') },
  Encoding: { contentType: COPY, headers: map(orRef('Header')), style: COPY, explode: COPY, allowReserved: COPY },
  Response: { description: COPY, headers: map(orRef('Header')), content: map('MediaType'), links: map(orRef('Link')) },
  Example: { summary: COPY, description: COPY, value: COPY, externalValue: COPY },
  Link: {
    operationRef: COPY,
    operationId: COPY,
    parameters: COPY,
    requestBody: COPY,
    description: COPY,
    server: 'Server',
  },
  Header: {
    description: COPY,
    required: COPY,
    deprecated: COPY,
    allowEmptyValue: COPY,
    style: COPY,
    explode: COPY,
    allowReserved: COPY,
    schema: SCHEMA,
    example: COPY,
    examples: map(orRef('Example')),
    content: map('MediaType'),
  },
  Tag: { name: COPY, description: COPY, externalDocs: 'ExternalDocs' },
  SecurityScheme: {
    type: COPY,
    description: COPY,
    name: COPY,
    in: COPY,
    scheme: COPY,
    bearerFormat: COPY,
    flows: 'OAuthFlows',
    openIdConnectUrl: COPY,
  },
  OAuthFlows: {
    implicit: 'OAuthFlow',
    password: 'OAuthFlow',
    clientCredentials: 'OAuthFlow',
    authorizationCode: 'OAuthFlow',
  },
  OAuthFlow: { authorizationUrl: COPY, tokenUrl: COPY, refreshUrl: COPY, scopes: COPY },
};

/** Objects whose other keys are patterned: which keys, and the type of their values. */
const PATTERNED: Record<string, { keys: RegExp; type: Field }> = {
  Paths: { keys: /^\//, type: orRef('PathItem') },
  Responses: { keys: /^(default|[1-5](\d\d|XX))$/, type: orRef('Response') },
  Callback: { keys: /./, type: 'PathItem' },
};

// --- Schema Object keywords ----------------------------------------------------------------------
/** The 3.0 keywords whose value is kept as it is. */
const SCHEMA_VALUES = new Set([
  'title',
  'multipleOf',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxProperties',
  'minProperties',
  'required',
  'description',
  'format',
  'default',
  'discriminator',
  'readOnly',
  'writeOnly',
  'xml',
  'externalDocs',
  'example',
  'deprecated',
]);

/** The 3.1 keywords that 3.0 cannot say: the extension that carries each, and its rule in prose (or none). */
const AS_EXTENSION: Record<string, { to: string; rules: (value: Json, schema: JsonObject) => string[] }> = {
  dependentSchemas: {
    to: 'x-dependent-schemas',
    rules: (value) => Object.entries(value).map(([name, sub]) => `When \`${name}\` is present: ${gist(sub)}.`),
  },
  dependentRequired: {
    to: 'x-dependent-required',
    rules: (value) =>
      Object.entries<string[]>(value).map(
        ([name, names]) =>
          `When \`${name}\` is present, ${(names as string[]).map((n) => `\`${n}\``).join(', ')} ${names.length === 1 ? 'is' : 'are'} required too.`,
      ),
  },
  if: { to: 'x-if', rules: (_value, schema) => [conditional(schema)] },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's own keyword, not a promise's
  then: { to: 'x-then', rules: () => [] },
  else: { to: 'x-else', rules: () => [] },
  prefixItems: {
    to: 'x-prefix-items',
    rules: (value) => [`The first ${value.length} items follow, in order, the schemas in \`x-prefix-items\`.`],
  },
  unevaluatedProperties: {
    to: 'x-unevaluated-properties',
    rules: (value) => [`A property that no other keyword evaluates must match: ${gist(value)}.`],
  },
  unevaluatedItems: {
    to: 'x-unevaluated-items',
    rules: (value) => [`An item that no other keyword evaluates must match: ${gist(value)}.`],
  },
  patternProperties: {
    to: 'x-pattern-properties',
    rules: (value) =>
      Object.entries(value).map(
        ([pattern, sub]) => `A property whose name matches \`${pattern}\` must match: ${gist(sub)}.`,
      ),
  },
  propertyNames: { to: 'x-property-names', rules: (value) => [`Every property name must match: ${gist(value)}.`] },
  contains: { to: 'x-contains', rules: (value, schema) => [`${containsCount(schema)} must match: ${gist(value)}.`] },
  minContains: { to: 'x-min-contains', rules: () => [] },
  maxContains: { to: 'x-max-contains', rules: () => [] },
  contentMediaType: { to: 'x-content-media-type', rules: (value) => [`The string holds \`${value}\` content.`] },
  contentEncoding: { to: 'x-content-encoding', rules: (value) => [`The string is encoded as \`${value}\`.`] },
  contentSchema: { to: 'x-content-schema', rules: (value) => [`Its decoded content must match: ${gist(value)}.`] },
  $comment: { to: 'x-comment', rules: () => [] },
  $id: { to: 'x-id', rules: () => [] },
  $schema: { to: 'x-schema', rules: () => [] },
};

/** The keywords whose rule is told in the prose of another. */
// biome-ignore lint/suspicious/noThenProperty: JSON Schema's own keyword, not a promise's
const RULED_WITH: Record<string, string> = { then: 'if', else: 'if', minContains: 'contains', maxContains: 'contains' };

/** 3.1 keywords that cannot be restated without restructuring the document: the converter refuses them. */
const REFUSED: Record<string, string> = {
  $defs: 'move its schemas to components/schemas and refer to them there',
  $anchor: 'refer to the schema by its JSON pointer instead',
  $dynamicRef: '3.0 has no dynamic references',
  $dynamicAnchor: '3.0 has no dynamic references',
  $vocabulary: '3.0 has one fixed vocabulary',
  nullable: 'nullable is OpenAPI 3.0\'s keyword, which 3.1 ignores: write type: [X, "null"]',
};

/** A subschema in a sentence: its description, or its JSON. */
function gist(schema: Json): string {
  if (schema && typeof schema === 'object' && typeof schema.description === 'string') {
    return schema.description
      .trim()
      .replace(/\s+/g, ' ')
      .replace(/(?<!\.)\.$/, '');
  }
  return `\`${JSON.stringify(schema)}\``;
}

function conditional(schema: JsonObject): string {
  const { if: condition, then: consequence, else: alternative } = schema;
  if (consequence === undefined && alternative === undefined) return 'The condition in `x-if` has no consequence.';
  const thenPart = consequence === undefined ? '' : `it must also match \`x-then\` (${gist(consequence)})`;
  const elsePart = alternative === undefined ? '' : `it must match \`x-else\` (${gist(alternative)})`;
  if (!thenPart) return `If the value does not match \`x-if\` (${gist(condition)}), ${elsePart}.`;
  return `If the value matches \`x-if\` (${gist(condition)}), ${thenPart}${elsePart ? `; otherwise ${elsePart}` : ''}.`;
}

function containsCount(schema: JsonObject): string {
  const min = schema.minContains ?? 1;
  return schema.maxContains === undefined
    ? `At least ${min} item${min === 1 ? '' : 's'}`
    : `From ${min} to ${schema.maxContains} items`;
}

// --- Helpers -------------------------------------------------------------------------------------
const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const pointer = (at: string, key: string | number): string =>
  `${at}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
const mapValues = (object: JsonObject, fn: (value: Json, key: string) => Json): JsonObject =>
  Object.fromEntries(Object.entries(object).map(([key, value]) => [key, fn(value, key)]));

/** `object` with `key` replaced, in its place, by `entries` (a key of `entries` found elsewhere moves here). */
function replaceKey(object: JsonObject, key: string, entries: JsonObject): JsonObject {
  const result: JsonObject = {};
  for (const [k, v] of Object.entries(object)) {
    if (k === key) Object.assign(result, entries);
    else if (!(k in entries)) result[k] = v;
  }
  return result;
}

/** A schema that holds only a `$ref`. */
const isBareRef = (schema: Json): boolean =>
  isObject(schema) && Object.keys(schema).length === 1 && typeof schema.$ref === 'string';

/** A 3.1 schema that allows only null, with nothing but annotations beside. */
function isNullSchema(schema: Json): boolean {
  if (!isObject(schema)) return false;
  const onlyNull =
    schema.type === 'null' ||
    isDeepStrictEqual(schema.type, ['null']) ||
    schema.const === null ||
    (Array.isArray(schema.enum) && schema.enum.length === 1 && schema.enum[0] === null);
  const annotations = new Set(['type', 'const', 'enum', 'description', 'title', '$comment']);
  return onlyNull && Object.keys(schema).every((key) => annotations.has(key) || key.startsWith('x-'));
}

type Restate = (value: Json, at: string) => JsonObject;

class Converter {
  readonly source: JsonObject;
  readonly losses: Loss[] = [];
  /** The names of components.pathItems inlined where they are referenced. */
  readonly inlined = new Set<string>();
  // The known values of each open enum, by the name of the closed enum that lists them (knownValueName).
  readonly knownValues = new Map<string, { known: string[]; at: string }>();
  readonly restated: Record<string, Record<string, Restate>>;

  constructor(document: unknown) {
    if (!isObject(document) || typeof document.openapi !== 'string' || !/^3\.1\.\d+$/.test(document.openapi)) {
      throw new Error(
        `OpenAPI 3.0 companion: the source must be an OpenAPI 3.1 document (openapi: ${JSON.stringify((document as Json)?.openapi)})`,
      );
    }
    this.source = document;
    // The 3.1-only fields of the OpenAPI objects: each returns the entries that stand for it.
    this.restated = {
      OpenAPI: {
        webhooks: (value, at) => {
          this.lose('webhooks', at, 'x-webhooks');
          return { 'x-webhooks': this.value(map(orRef('PathItem')), value, at) };
        },
        jsonSchemaDialect: (value, at) => {
          if (value === OAS_31_DIALECT) return {}; // The default: every schema is converted from it.
          this.lose('jsonSchemaDialect', at, 'x-json-schema-dialect');
          return { 'x-json-schema-dialect': value };
        },
      },
      Info: { summary: (value, at) => this.extension('info.summary', at, 'info.x-summary', value) },
      License: {
        identifier: (value, at) => this.extension('license.identifier', at, 'info.license.x-identifier', value),
      },
      // Inlined where they are referenced, since 3.0 has no reusable path items (see run()).
      Components: { pathItems: () => ({}) },
    };
  }

  /** A field kept as the extension `where` names (its last segment), as a loss of `kind`. */
  extension(kind: string, at: string, where: string, value: Json): JsonObject {
    this.lose(kind, at, where);
    return { [where.split('.').at(-1) ?? where]: value };
  }

  fail(at: string, message: string): never {
    throw new Error(
      `OpenAPI 3.0 companion: ${at}: ${message}. Teach build/lib/openapi-30.ts to restate it in OpenAPI 3.0 (and list the loss in CONTRIBUTING.md), or leave it out of the 3.1 document.`,
    );
  }

  lose(kind: string, at: string, to: string): void {
    this.losses.push({ kind, at, to });
  }

  run(): JsonObject {
    const source = this.source;
    const out = this.object('OpenAPI', source, '#');
    out.openapi = OPENAPI_30_VERSION;
    // 3.0 requires paths; 3.1 does not.
    if (!('paths' in out)) out.paths = {};
    this.addKnownValues(out);
    const unreferenced = Object.keys(source.components?.pathItems ?? {}).filter((name) => !this.inlined.has(name));
    if (unreferenced.length > 0) {
      out.components['x-path-items'] = Object.fromEntries(
        unreferenced.map((name) => {
          this.lose('components.pathItems', pointer('#/components/pathItems', name), 'components.x-path-items');
          return [name, this.pathItem(source.components.pathItems[name], pointer('#/components/pathItems', name))];
        }),
      );
    }
    return out;
  }

  /** An object of one of the 3.0 types, field by field, its 3.1-only fields restated. */
  object(type: string, value: Json, at: string): JsonObject {
    if (!isObject(value)) this.fail(at, `a ${type} Object must be an object`);
    const fields = FIELDS[type] ?? {};
    const restated = this.restated[type] ?? {};
    let out: JsonObject = {};
    for (const [key, field] of Object.entries(value as JsonObject)) {
      const here = pointer(at, key);
      if (key.startsWith('x-')) out[key] = field;
      else if (Object.hasOwn(fields, key)) out[key] = this.value(fields[key] as Field, field, here);
      else if (Object.hasOwn(restated, key)) out = { ...out, ...(restated[key] as Restate)(field, here) };
      else this.fail(here, `"${key}" is not a field of an OpenAPI 3.0 ${type} Object`);
    }
    if (type === 'Operation' && !('responses' in out))
      this.fail(at, 'OpenAPI 3.0 requires responses on every operation');
    if (type === 'SecurityScheme' && !['apiKey', 'http', 'oauth2', 'openIdConnect'].includes(out.type)) {
      this.fail(pointer(at, 'type'), `OpenAPI 3.0 has no security scheme of type ${JSON.stringify(out.type)}`);
    }
    if (type === 'PathItem') return this.inlinePathItem(out, at);
    return out;
  }

  value(field: Field, value: Json, at: string): Json {
    if (field === COPY) return value;
    if (field === SCHEMA) return this.schema(value, at);
    if (typeof field === 'string')
      return PATTERNED[field] ? this.patterned(field, value, at) : this.object(field, value, at);
    if ('list' in field) {
      if (!Array.isArray(value)) this.fail(at, 'must be a list');
      return value.map((item: Json, i: number) => this.value(field.list, item, pointer(at, i)));
    }
    if ('map' in field) {
      if (!isObject(value)) this.fail(at, 'must be a map');
      return mapValues(value, (item, key) => this.value(field.map, item, pointer(at, key)));
    }
    if ('orRef' in field)
      return isObject(value) && '$ref' in value && field.orRef !== 'PathItem'
        ? this.reference(value, at)
        : this.value(field.orRef, value, at);
    throw new Error(`OpenAPI 3.0 companion: no rule for ${JSON.stringify(field)}`);
  }

  patterned(type: string, value: Json, at: string): JsonObject {
    if (!isObject(value)) this.fail(at, `a ${type} Object must be an object`);
    const { keys, type: of } = PATTERNED[type] as { keys: RegExp; type: Field };
    return mapValues(value, (item, key) => {
      if (key.startsWith('x-')) return item;
      if (!keys.test(key)) this.fail(pointer(at, key), `"${key}" is not a key of an OpenAPI 3.0 ${type} Object`);
      return this.value(of, item, pointer(at, key));
    });
  }

  pathItem(value: Json, at: string): JsonObject {
    return this.object('PathItem', value, at);
  }

  /** A path item that refers to components.pathItems (3.1 only) holds a copy of it instead. */
  inlinePathItem(item: JsonObject, at: string): JsonObject {
    const prefix = '#/components/pathItems/';
    if (typeof item.$ref !== 'string' || !item.$ref.startsWith(prefix))
      return item.$ref === undefined ? item : { ...item, $ref: this.ref(item.$ref, pointer(at, '$ref')) };
    const name = item.$ref.slice(prefix.length).replace(/~1/g, '/').replace(/~0/g, '~');
    const target = this.source.components?.pathItems?.[name];
    if (!target) this.fail(at, `${item.$ref} names no path item`);
    this.inlined.add(name);
    const { $ref: _ref, ...siblings } = item;
    return { ...this.pathItem(target, item.$ref), ...siblings };
  }

  /** A Reference Object: 3.0 ignores anything beside `$ref`, so 3.1's summary and description go. */
  reference(value: JsonObject, at: string): JsonObject {
    for (const key of Object.keys(value)) {
      if (key === '$ref') continue;
      if (key === 'summary' || key === 'description')
        this.lose('$ref siblings', pointer(at, key), 'dropped (3.0 ignores them)');
      else this.fail(pointer(at, key), `"${key}" is not a field of a Reference Object`);
    }
    return { $ref: this.ref(value.$ref, pointer(at, '$ref')) };
  }

  ref(target: Json, at: string): string {
    if (typeof target !== 'string' || !target.startsWith('#'))
      this.fail(at, `only local references (#/…) convert; bundle the document first (found ${JSON.stringify(target)})`);
    if (target.startsWith('#/webhooks/')) return `#/x-webhooks/${target.slice('#/webhooks/'.length)}`;
    if (target !== '#' && !target.startsWith('#/'))
      this.fail(at, `the anchor reference ${target} has no 3.0 equivalent`);
    return target;
  }

  /** A Schema Object (JSON Schema 2020-12) as a 3.0 Schema Object. */
  schema(source: Json, at: string): JsonObject {
    if (source === true) return {};
    if (source === false) return { not: {} };
    if (!isObject(source)) this.fail(at, 'a schema must be an object or a boolean');
    let out: JsonObject = {};
    const moved: string[] = []; // the keywords kept as extensions, in order
    const nullIn: string[] = []; // the compositions that had a null branch
    for (const [key, value] of Object.entries(source)) {
      const here = pointer(at, key);
      if (key.startsWith('x-') || SCHEMA_VALUES.has(key)) out[key] = value;
      else if (key === '$ref') out.$ref = this.ref(value, here);
      else if (key === 'type') out.type = value;
      else if (key === 'properties')
        out.properties = mapValues(value, (sub, name) => this.schema(sub, pointer(here, name)));
      else if (key === 'additionalProperties')
        out.additionalProperties = typeof value === 'boolean' ? value : this.schema(value, here);
      else if (key === 'items') {
        if (Array.isArray(value)) this.fail(here, 'items as a list is not JSON Schema 2020-12: write prefixItems');
        out.items = this.schema(value, here);
      } else if (key === 'not') out.not = this.schema(value, here);
      else if (key === 'allOf') out.allOf = value.map((sub: Json, i: number) => this.schema(sub, pointer(here, i)));
      else if (key === 'oneOf' || key === 'anyOf') {
        const kept: [Json, number][] = value
          .map((sub: Json, i: number) => [sub, i])
          .filter(([sub]: [Json]) => !isNullSchema(sub));
        if (kept.length < value.length) nullIn.push(key);
        out[key] = kept.map(([sub, i]) => this.schema(sub, pointer(here, i)));
      } else if (key === 'enum') {
        if (!('const' in source)) out.enum = value;
      } else if (key === 'const') {
        // A one-value enum says the same; with an enum beside, only the const can still match.
        out.enum = [value];
      } else if (key === 'examples') {
        if (!Array.isArray(value)) this.fail(here, "a schema's examples must be a list");
        if (!('example' in source) && value.length > 0) out.example = value[0];
        if (value.length > 1 || ('example' in source && value.length > 0)) {
          if ('x-examples' in source) this.fail(here, 'the schema already has x-examples, where examples would go');
          this.lose('examples', here, `example (the first) and x-examples (all ${value.length})`);
          out['x-examples'] = value;
        }
      } else if (key === 'minimum' || key === 'maximum') {
        if (!this.exclusiveWins(source, key)) out[key] = value;
      } else if (key === 'exclusiveMinimum' || key === 'exclusiveMaximum') {
        if (typeof value !== 'number') this.fail(here, `${key} is a number in 3.1 (the boolean form is 3.0's)`);
        const bound = key === 'exclusiveMinimum' ? 'minimum' : 'maximum';
        if (this.exclusiveWins(source, bound)) Object.assign(out, { [bound]: value, [key]: true });
      } else if (key === 'contentEncoding' && value === 'base64' && !('format' in source)) {
        out.format = 'byte'; // 3.0's word for a base64-encoded string
      } else if (Object.hasOwn(AS_EXTENSION, key)) {
        moved.push(key);
      } else if (Object.hasOwn(REFUSED, key)) {
        this.fail(here, `${key} has no OpenAPI 3.0 equivalent (${REFUSED[key]})`);
      } else {
        this.fail(here, `"${key}" is not a keyword of an OpenAPI 3.0 Schema Object, nor one the converter restates`);
      }
    }
    out = this.types(out, at);
    out = this.openEnum(out, at);
    // Branches that no anyOf of the source gave came from its type array: the loss is reported at its `type`.
    out = this.scalarUnion(out, pointer(at, 'anyOf' in source ? 'anyOf' : 'type'));
    if (source.const === null && !('type' in out)) out = this.onlyNull(out, pointer(at, 'const'));
    else if (source.const === null) out.nullable = true;
    for (const composition of nullIn) out = this.nullBranch(out, composition, at);
    out = this.extensions(out, source, moved, at);
    return this.refSiblings(out);
  }

  /**
   * An open enum, `anyOf: [{type: string, enum: [...]}, {type: string}]`: the known values, and any
   * other string. TypeScript generators keep both; 3.0 generators (openapi-generator's PHP and
   * Rust, oapi-codegen, Java) make an empty model or a bare wrapper of the anyOf, which loses the
   * value or its constants. 3.0's plain words for it are a string, with the known values listed in
   * `x-extensible-enum` and the description: never a closed `enum`, which would refuse a new value.
   * The known values also get a closed enum of their own (see addKnownValues), which the string
   * names in `x-known-values`: generators make constants of it, and nothing refers to it, so it
   * closes nothing.
   */
  openEnum(out: JsonObject, at: string): JsonObject {
    const known = openEnumValues(out);
    if (!known) return out;
    const name = this.knownValuesAt(at, known);
    const to = `type: string, with the known values in x-extensible-enum, the description and ${name} (x-known-values)`;
    this.lose('open enum', pointer(at, 'anyOf'), to);
    const { anyOf: _anyOf, ...rest } = out;
    const string = { ...rest, type: 'string', 'x-extensible-enum': known, 'x-known-values': name };
    return withNote(string, knownValuesNote(known, name));
  }

  /** Records the known values of the open enum at `at` (a pointer in the 3.1 document) by their name; returns it. */
  knownValuesAt(at: string, known: string[]): string {
    const name = knownValueName(at);
    if (!name) {
      this.fail(
        at,
        "an open enum outside a named schema's properties, items or compositions has no name for its known " +
          'values: name it in components/schemas',
      );
    }
    const seen = this.knownValues.get(name);
    if (seen && !isDeepStrictEqual(seen.known, known)) {
      this.fail(at, `the known values of ${seen.at} are named ${name} too, with other values`);
    }
    if (!seen) this.knownValues.set(name, { known, at });
    return name;
  }

  /**
   * Each open enum's known values, as a closed string enum among the schemas: the one form of a
   * list of strings that every generator makes constants of (openapi-generator makes a type of
   * every component schema, referenced or not).
   */
  addKnownValues(out: JsonObject): void {
    if (this.knownValues.size === 0) return;
    const schemas = out.components.schemas;
    for (const [name, { known, at }] of this.knownValues) {
      if (Object.hasOwn(schemas, name)) {
        this.fail(at, `its known values would be the schema ${name}, which the document already has`);
      }
      schemas[name] = {
        type: 'string',
        description:
          `The known values of ${placeOf(at)}, an open enum: a string that may hold other values. ` +
          'Nothing refers to this list, so it closes nothing; it gives the known values their constants.\n',
        enum: known,
      };
    }
  }

  /**
   * An anyOf of plain scalars of different types (ServiceFee: a string or a number), with nothing
   * beside but annotations. 3.0 generators read it badly: openapi-generator makes an empty struct or
   * model of it (Rust, PHP), a class that reads neither (Kotlin) or a module that drops a 0 (Ruby).
   * With no type, each reads the value as it comes (serde_json::Value, mixed, Object, Any). The
   * branches stay in `x-any-of`, and the description says what they allow. `here` is where the
   * 3.1 source says it: its `anyOf`, or its `type` when the branches came from a type array.
   */
  scalarUnion(out: JsonObject, here: string): JsonObject {
    const branches = out.anyOf;
    const besides = Object.keys(out).some((key) => !UNION_SIBLINGS.has(key) && !key.startsWith('x-'));
    if (!Array.isArray(branches) || branches.length < 2 || besides) return out;
    const plain = (branch: Json) =>
      isObject(branch) &&
      SCALAR_TYPES.has(branch.type) &&
      Object.keys(branch).every((key) => SCALAR_BRANCH_KEYS.has(key));
    const types: string[] = branches.map((branch: JsonObject) => branch.type);
    if (!branches.every(plain) || new Set(types).size < types.length || 'x-any-of' in out) return out;
    this.lose('anyOf of scalar types', here, 'no type, with the branches in x-any-of and the description');
    const { anyOf: _anyOf, ...rest } = out;
    const kinds = types.map((type) => `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`).join(' or ');
    const note =
      `It is ${kinds}, as \`x-any-of\` says: OpenAPI 3.0 generators read an anyOf of scalar types badly, ` +
      'so the companion states no type. Read the value as it comes.';
    return withNote({ ...rest, 'x-any-of': branches }, note);
  }

  /** Whether the exclusive bound beside `bound` (minimum or maximum) is the stricter, or the only, one. */
  exclusiveWins(source: JsonObject, bound: 'minimum' | 'maximum'): boolean {
    const exclusive = source[bound === 'minimum' ? 'exclusiveMinimum' : 'exclusiveMaximum'];
    if (typeof exclusive !== 'number') return false;
    if (typeof source[bound] !== 'number') return true;
    return bound === 'minimum' ? exclusive >= source[bound] : exclusive <= source[bound];
  }

  /** `type` as 3.0 has it: one type, `nullable` for null, and `anyOf` for several types. */
  types(out: JsonObject, at: string): JsonObject {
    if (!('type' in out)) return out;
    const types: string[] = Array.isArray(out.type) ? out.type : [out.type];
    const others = types.filter((type) => type !== 'null');
    const nullable = others.length < types.length;
    if (others.length === 1)
      return replaceKey(out, 'type', nullable ? { type: others[0], nullable: true } : { type: others[0] });
    if (others.length === 0) return this.onlyNull(replaceKey(out, 'type', {}), pointer(at, 'type'));
    // Several types: one branch each, every branch nullable when null is allowed (so that anyOf holds).
    const branches = others.map((type) => (nullable ? { type, nullable: true } : { type }));
    if (!('anyOf' in out)) return replaceKey(out, 'type', { anyOf: branches });
    return replaceKey(out, 'type', { allOf: [...(out.allOf ?? []), { anyOf: branches }] });
  }

  /** A schema of null alone: 3.0 has no null type; a nullable type whose only value is null is the nearest. */
  onlyNull(out: JsonObject, at: string): JsonObject {
    this.lose('type: null', at, 'type: string, nullable: true, enum: [null]');
    return { ...out, type: 'string', nullable: true, enum: [null] };
  }

  /**
   * A oneOf/anyOf that had a null branch: the other branches, made nullable. 3.0's `nullable` holds
   * only beside `type`, so the type they share is written too; without one, the null is told in
   * the description alone.
   */
  nullBranch(out: JsonObject, composition: string, at: string): JsonObject {
    const here = pointer(at, composition);
    const branches: Json[] = out[composition];
    // A type beside that excludes null: the null branch could never match.
    if ('type' in out && !out.nullable) return out;
    if (branches.length === 0) return this.onlyNull(replaceKey(out, composition, {}), here);
    const rest = replaceKey(out, composition, {});
    const [only] = branches;
    if (
      branches.length === 1 &&
      !isBareRef(only) &&
      typeof only.type === 'string' &&
      !Object.keys(only).some((key) => key in rest)
    ) {
      // An inline branch with its own type, merged: nullable says exactly what 3.1 said.
      return replaceKey(out, composition, { ...only, nullable: true });
    }
    const openEnum = branches.length === 1 && isBareRef(only) ? this.openEnumAt(only.$ref) : undefined;
    if (openEnum) {
      // A nullable reference to an open enum: in 3.0 a nullable string with the known values, inline.
      // `nullable` beside an `allOf` of the reference would not reach into it, and a strict 3.0
      // validator would refuse the null the service sends (eligibility_status of the catalog).
      this.lose(
        `null in ${composition}`,
        here,
        `the open enum ${only.$ref.split('/').pop()} inlined as a nullable string`,
      );
      const { description: _description, ...known } = this.schema(openEnum, only.$ref);
      const note = knownValuesNote(known['x-extensible-enum'], known['x-known-values']);
      return withNote(replaceKey(out, composition, { ...known, nullable: true }), note);
    }
    const types = new Set(branches.map((branch) => this.typeOf(branch)));
    const type = out.type ?? (types.size === 1 ? [...types][0] : undefined);
    if (type === undefined) {
      this.lose(
        `null in ${composition}`,
        here,
        'the description (the other branches share no type that nullable could stand beside)',
      );
      return withNote(out, 'It may also be null: OpenAPI 3.0 cannot say so here.');
    }
    if (branches.length === 1) {
      this.lose(`null in ${composition}`, here, `type: ${type}, nullable: true beside allOf: [the other branch]`);
      return replaceKey(out, composition, { type, nullable: true, allOf: [...(rest.allOf ?? []), only] });
    }
    this.lose(
      `null in ${composition}`,
      here,
      `type: ${type}, nullable: true beside the ${composition} of the other branches`,
    );
    return replaceKey(out, composition, { type, nullable: true, [composition]: branches });
  }

  /** The 3.1 schema a local `$ref` names, when it is an open enum (src/contract/open-enum.ts); else undefined. */
  openEnumAt(ref: string): JsonObject | undefined {
    if (!ref.startsWith('#/')) return undefined;
    const target = ref
      .slice(2)
      .split('/')
      .reduce<Json>((node, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], this.source);
    return openEnumValues(target) ? target : undefined;
  }

  /** The one type a schema's values have (following references into the 3.1 document), or undefined. */
  typeOf(schema: Json, seen = new Set<string>()): string | undefined {
    if (!isObject(schema)) return undefined;
    if (schema.type !== undefined) {
      const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter(
        (type: string) => type !== 'null',
      );
      return types.length === 1 ? types[0] : undefined;
    }
    if (typeof schema.$ref === 'string') {
      if (seen.has(schema.$ref) || !schema.$ref.startsWith('#/')) return undefined;
      const target = schema.$ref
        .slice(2)
        .split('/')
        .reduce<Json>((node, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], this.source);
      return this.typeOf(target, new Set([...seen, schema.$ref]));
    }
    for (const sub of schema.allOf ?? []) {
      const type = this.typeOf(sub, seen);
      if (type !== undefined) return type;
    }
    for (const composition of ['oneOf', 'anyOf']) {
      if (!Array.isArray(schema[composition])) continue;
      const types = new Set(
        schema[composition].filter((sub: Json) => !isNullSchema(sub)).map((sub: Json) => this.typeOf(sub, seen)),
      );
      if (types.size === 1) return [...types][0];
    }
    return undefined;
  }

  /** The 3.1-only keywords, as extensions carrying their original JSON, with their rules in the description. */
  extensions(out: JsonObject, source: JsonObject, moved: string[], at: string): JsonObject {
    if (moved.length === 0) return out;
    const rules: string[] = [];
    const names: string[] = [];
    const result = { ...out };
    for (const key of moved) {
      const { to, rules: prose } = AS_EXTENSION[key] as (typeof AS_EXTENSION)[string];
      if (to in source) this.fail(pointer(at, key), `the schema already has ${to}, where ${key} would go`);
      result[to] = source[key];
      names.push(`\`${to}\``);
      const own = prose(source[key], source);
      rules.push(...own);
      // then/else are told with if, minContains/maxContains with contains.
      const ruledWith = RULED_WITH[key];
      const told = own.length > 0 || (ruledWith !== undefined && moved.includes(ruledWith));
      this.lose(key, pointer(at, key), told ? `${to} and the description` : to);
    }
    // Loosen what 3.0 would otherwise forbid: a property that a pattern allowed, an item a prefix allowed.
    if (
      moved.includes('patternProperties') &&
      source.additionalProperties !== undefined &&
      source.additionalProperties !== true
    ) {
      const patterns = Object.entries(source.patternProperties).map(([pattern, sub]) =>
        this.schema(sub, pointer(pointer(at, 'patternProperties'), pattern)),
      );
      const allowed = source.additionalProperties === false ? patterns : [result.additionalProperties, ...patterns];
      result.additionalProperties = allowed.length === 1 ? allowed[0] : { anyOf: allowed };
    }
    if (moved.includes('prefixItems')) {
      const prefix = source.prefixItems.map((sub: Json, i: number) =>
        this.schema(sub, pointer(pointer(at, 'prefixItems'), i)),
      );
      if (source.items === false) {
        result.items = prefix.length === 1 ? prefix[0] : { anyOf: prefix };
        result.maxItems = Math.min(source.maxItems ?? Infinity, prefix.length);
      } else if (source.items === undefined || source.items === true) {
        result.items = {};
      } else {
        result.items = { anyOf: [...prefix, result.items] };
      }
    }
    if (rules.length === 0) return result;
    return withNote(
      result,
      `OpenAPI 3.0 cannot state ${rules.length === 1 ? 'this rule' : 'these rules'}, kept in JSON Schema 2020-12 in ${joinNames(names)}:\n${rules.map((rule) => `- ${rule}`).join('\n')}`,
    );
  }

  /** 3.0 ignores the siblings of `$ref`; in `allOf` beside them, they hold. */
  refSiblings(out: JsonObject): JsonObject {
    if (!('$ref' in out) || Object.keys(out).length === 1) return out;
    const { allOf = [] } = out;
    return replaceKey(replaceKey(out, 'allOf', {}), '$ref', { allOf: [{ $ref: out.$ref }, ...allOf] });
  }
}

/** The types an anyOf of scalars may join (scalarUnion), what its branches may hold, and what may stand beside it. */
const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean']);
const SCALAR_BRANCH_KEYS = new Set(['type', 'format', 'description', 'title', 'nullable']);
const UNION_SIBLINGS = new Set([
  'anyOf',
  'description',
  'title',
  'example',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  'externalDocs',
]);

/** What the description of an open enum says in 3.0, where no keyword can. */
const knownValuesNote = (known: string[], name: string): string =>
  `Known values: ${known.map((v) => `\`${v}\``).join(', ')}. ` +
  `Other values may appear: read it as a string. The schema \`${name}\` lists the known ones.`;

/** A JSON pointer's segments, unescaped. */
const segmentsOf = (at: string): string[] =>
  at
    .slice(2)
    .split('/')
    .map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'));

/** A name's words (split at anything not a letter or digit), each capitalised and joined. */
const pascal = (text: string): string =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');

/**
 * The name of the closed enum of an open enum's known values: `<Schema>KnownValue` for a named one,
 * `<Schema><Property>KnownValue` for one in a named schema's property, and deeper, one word per
 * property (`Item` for an array's items, `Value` for a map's values; a composition adds none).
 * Undefined outside components/schemas, or under another keyword.
 */
function knownValueName(at: string): string | undefined {
  const [components, schemas, schema, ...rest] = segmentsOf(at);
  if (components !== 'components' || schemas !== 'schemas' || schema === undefined) return undefined;
  const words = [pascal(schema)];
  for (let i = 0; i < rest.length; i += 1) {
    const key = rest[i] as string;
    if (key === 'properties' && i + 1 < rest.length) {
      i += 1;
      words.push(pascal(rest[i] as string));
    } else if (key === 'items') words.push('Item');
    else if (key === 'additionalProperties') words.push('Value');
    else if (['allOf', 'anyOf', 'oneOf'].includes(key) && /^\d+$/.test(rest[i + 1] ?? '')) i += 1;
    else return undefined;
  }
  return `${words.join('')}KnownValue`;
}

/** Where an open enum is, for a reader: `Schema` or `Schema.property…`. */
function placeOf(at: string): string {
  const [, , schema, ...rest] = segmentsOf(at);
  const path = rest.flatMap((key, i) => (rest[i - 1] === 'properties' ? [key] : key === 'items' ? ['[]'] : []));
  return `\`${[schema, ...path].join('.').replace(/\.\[\]/g, '[]')}\``;
}

/** `schema` with a paragraph added to its description (which it gets if it had none). */
function withNote(schema: JsonObject, note: string): JsonObject {
  if (typeof schema.description !== 'string') return { description: `${note}\n`, ...schema };
  return { ...schema, description: `${schema.description.replace(/\s+$/, '')}\n\n${note}\n` };
}

function joinNames(names: string[]): string {
  return names.length === 1 ? (names[0] as string) : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
