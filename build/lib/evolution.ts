// What the evolution policy (docs/guides/versioning.md) asks of a document, found by walking it:
// which schemas the service's answers and deliveries reach and which a partner's requests reach,
// and in them every object schema that refuses a property it does not name, and every enum. Works
// on the OpenAPI 3.1 contract and on its 3.0 companion (whose webhooks are `x-webhooks`). The spec
// tests hold the policy with it, and the breaking-change gate (build/diff.mjs) rates changes by it.
import { openEnumValues } from '../../src/contract/open-enum.ts';

/** A node of a document, read as JSON: the walks below check each one's shape before they read it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
// biome-ignore lint/suspicious/noExplicitAny: a node of a JSON document, read where the walk knows its keyword
type Json = any;
type JsonObject = Record<string, Json>;

export interface EvolutionDocument {
  paths?: Record<string, Record<string, unknown>>;
  webhooks?: Record<string, Record<string, unknown>>;
  'x-webhooks'?: Record<string, Record<string, unknown>>;
  components: {
    schemas: Record<string, unknown>;
    responses?: Record<string, unknown>;
    parameters?: Record<string, unknown>;
  };
}
export interface FoundEnum {
  at: string;
  kind: 'open' | 'extensible' | 'closed';
  values: unknown[];
  closedBecause?: string;
}
export interface EvolutionBreak {
  impact: 'major';
  kind: string;
  where: string;
  messages: string[];
}

const isNode = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);
/** Keys whose values are data, never schemas. */
const DATA = new Set([
  'example',
  'examples',
  'default',
  'enum',
  'const',
  'x-extensible-enum',
  'links',
  'x-idempotency',
]);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);

/** The component schemas a set of roots reaches through every $ref (responses and parameters followed). */
function reach(doc: EvolutionDocument, roots: unknown[]): Set<string> {
  const reached = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    if (!isNode(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (DATA.has(key)) continue;
      if (key === '$ref' && typeof value === 'string') {
        const [, , kind, name] = value.split('/');
        if (kind === 'schemas' && name !== undefined && !reached.has(name)) {
          reached.add(name);
          walk(doc.components.schemas[name]);
        } else if (kind === 'responses' || kind === 'parameters') {
          walk((doc.components[kind] as JsonObject | undefined)?.[name as string]);
        }
      } else {
        walk(value);
      }
    }
  };
  roots.forEach(walk);
  return reached;
}

/**
 * The names of the component schemas the service sends (responses, webhook bodies) and of those a
 * partner sends (request bodies, parameters): `{ answers, requests }`, two Sets.
 */
export function schemaReach(doc: EvolutionDocument): { answers: Set<string>; requests: Set<string> } {
  const items: JsonObject[] = Object.values(doc.paths ?? {});
  const operations = items.flatMap((item) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([, op]) => op as JsonObject),
  );
  const deliveries = Object.values(doc.webhooks ?? doc['x-webhooks'] ?? {}).flatMap(
    (item) => Object.values(item) as JsonObject[],
  );
  return {
    answers: reach(doc, [...operations.map((op) => op.responses), ...deliveries.map((op) => op.requestBody)]),
    requests: reach(doc, [
      ...operations.flatMap((op) => [op.requestBody, op.parameters]),
      ...items.map((item) => item.parameters),
    ]),
  };
}

/** Each schema inside a named schema, `{ at, schema }` with its JSON pointer; references are not followed (each named schema is walked on its own). */
export function* subschemas(
  name: string,
  schema: unknown,
  at = `#/components/schemas/${name}`,
): Generator<{ at: string; schema: JsonObject }> {
  if (!isNode(schema)) return;
  yield { at, schema };
  for (const [key, value] of Object.entries(schema)) {
    if (DATA.has(key) || key.startsWith('x-')) continue;
    if (SCHEMA_MAPS.has(key)) {
      if (isNode(value))
        for (const [child, sub] of Object.entries(value)) yield* subschemas(name, sub, `${at}/${key}/${child}`);
    } else if (Array.isArray(value)) {
      for (const [i, sub] of value.entries()) yield* subschemas(name, sub, `${at}/${key}/${i}`);
    } else if (isNode(value)) {
      yield* subschemas(name, value, `${at}/${key}`);
    }
  }
}

/** The pointers of the object schemas, among the named ones, that refuse undeclared properties (`additionalProperties` or `unevaluatedProperties` false). */
export function closedObjects(doc: EvolutionDocument, names: Iterable<string>): string[] {
  const closed: string[] = [];
  for (const name of names) {
    for (const { at, schema } of subschemas(name, doc.components.schemas[name])) {
      if (schema.additionalProperties === false || schema.unevaluatedProperties === false) closed.push(at);
    }
  }
  return closed;
}

/**
 * Every enum in the named schemas: `{ at, kind, values, closedBecause? }`, where kind is `open`
 * (3.1: `anyOf` of the known values and any string), `extensible` (3.0: a string with the known
 * values in `x-extensible-enum`) or `closed` (an `enum` or `const`; `closedBecause` is its
 * `x-enum-closed`, why it cannot grow). An open enum is found once: its known branch is not a closed one.
 */
export function enumsIn(doc: EvolutionDocument, names: Iterable<string>): FoundEnum[] {
  const found: FoundEnum[] = [];
  for (const name of names) {
    const knownBranches = new Set<string>();
    for (const { at, schema } of subschemas(name, doc.components.schemas[name])) {
      const open = openEnumValues(schema);
      if (open) {
        found.push({ at, kind: 'open', values: open });
        for (const i of schema.anyOf.keys()) knownBranches.add(`${at}/anyOf/${i}`);
      } else if (Array.isArray(schema['x-extensible-enum'])) {
        found.push({ at, kind: 'extensible', values: schema['x-extensible-enum'] });
      }
      if (knownBranches.has(at) || !(Array.isArray(schema.enum) || 'const' in schema)) continue;
      const closedBecause = typeof schema['x-enum-closed'] === 'string' ? schema['x-enum-closed'] : undefined;
      found.push({
        at,
        kind: 'closed',
        values: Array.isArray(schema.enum) ? schema.enum : [schema.const],
        ...(closedBecause ? { closedBecause } : {}),
      });
    }
  }
  return found;
}

/** The node a JSON pointer names; a `$ref` segment follows the reference it stands beside (as redocly diff writes its paths). */
export function nodeAt(doc: unknown, pointer: string): unknown {
  let node: Json = doc;
  for (const raw of pointer.replace(/^#\/?/, '').split('/').filter(Boolean)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    node = key === '$ref' && typeof node?.$ref === 'string' ? nodeAt(doc, node.$ref) : node?.[key];
  }
  return node;
}

/**
 * What the evolution policy makes breaking between two versions of the contract, beyond what
 * redocly diff rates: an answer's object schema that was open and refuses undeclared properties
 * now, and an answer's enum that was open and is closed now (or lost its string fallback).
 * Returns changes in the gate's shape: `{ impact: 'major', kind, where, messages }`. renames maps a
 * renamed schema's old name to its new one, so that what was closed under the old name is not
 * found closed anew under the new one (the rename is the gate's source break, not this one's).
 */
export function evolutionBreaks(
  base: EvolutionDocument,
  revision: EvolutionDocument,
  renames = new Map<string, string>(),
): EvolutionBreak[] {
  const before = schemaReach(base).answers;
  const after = [...schemaReach(revision).answers];
  const breaks: EvolutionBreak[] = [];
  const renamed = (at: string) =>
    at.replace(/^(#\/components\/schemas\/)([^/]+)/, (whole, head: string, name: string) =>
      renames.has(name) ? head + renames.get(name) : whole,
    );
  // An object schema an answer reaches that refuses undeclared properties now: in place, or a new
  // schema the answer reaches (what the base closed already is redocly's to rate, or no change).
  const closedBefore = new Set(closedObjects(base, before).map(renamed));
  for (const at of closedObjects(revision, after)) {
    if (!closedBefore.has(at)) {
      breaks.push({
        impact: 'major',
        kind: 'modified',
        where: at.slice(2),
        messages: [
          "An answer's schema refuses properties it does not name now: a later answer would break partners' readers (answer-closed).",
        ],
      });
    }
  }
  // An enum an answer carries that is closed now without saying why (x-enum-closed): an open one
  // closed, or lost its string fallback, or a closed one the answer reaches anew.
  const closedWithoutReason = (doc: EvolutionDocument, names: Iterable<string>) =>
    new Set(
      enumsIn(doc, names)
        .filter((found) => found.kind === 'closed' && !found.closedBecause)
        .map((found) => found.at),
    );
  const closedEnumsBefore = new Set([...closedWithoutReason(base, before)].map(renamed));
  for (const at of closedWithoutReason(revision, after)) {
    if (!closedEnumsBefore.has(at)) {
      breaks.push({
        impact: 'major',
        kind: 'modified',
        where: at.slice(2),
        messages: [
          "An answer's enum is closed now: a value the service adds later would break partners' decoders (enum-closed).",
        ],
      });
    }
  }
  return breaks;
}

/**
 * Whether a change that redocly diff rates is only values added to open enums (which the policy
 * lets the service add): each of its verdicts is `enum-values-added` at the known branch of an
 * open enum of the revision (the verdict's own pointer, in the document's components).
 */
export function addsToOpenEnum(
  revision: EvolutionDocument,
  change: { verdicts?: Array<{ ruleId: string; location?: { pointer?: string } }> },
): boolean {
  const verdicts = change.verdicts ?? [];
  return (
    verdicts.length > 0 &&
    verdicts.every((verdict) => {
      const found = /^(.*)\/anyOf\/\d+\/enum$/.exec(verdict.location?.pointer ?? '');
      return (
        verdict.ruleId === 'enum-values-added' &&
        found !== null &&
        openEnumValues(nodeAt(revision, found[1] as string)) !== undefined
      );
    })
  );
}
