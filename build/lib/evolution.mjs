// What the evolution policy (docs/guides/versioning.md) asks of a document, found by walking it:
// which schemas the service's answers and deliveries reach and which a partner's requests reach,
// and in them every object schema that refuses a property it does not name, and every enum. Works
// on the OpenAPI 3.1 contract and on its 3.0 companion (whose webhooks are `x-webhooks`). The spec
// tests hold the policy with it, and the breaking-change gate (build/diff.mjs) rates changes by it.
import { openEnumValues } from '../../src/contract/open-enum.ts';

const isNode = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);
/** Keys whose values are data, never schemas. */
const DATA = new Set(['example', 'examples', 'default', 'enum', 'const', 'x-extensible-enum', 'links', 'x-idempotency']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);

/** The component schemas a set of roots reaches through every $ref (responses and parameters followed). */
function reach(doc, roots) {
  const reached = new Set();
  const walk = (node) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!isNode(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (DATA.has(key)) continue;
      if (key === '$ref' && typeof value === 'string') {
        const [, , kind, name] = value.split('/');
        if (kind === 'schemas' && !reached.has(name)) {
          reached.add(name);
          walk(doc.components.schemas[name]);
        } else if (kind === 'responses' || kind === 'parameters') {
          walk(doc.components[kind]?.[name]);
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
export function schemaReach(doc) {
  const items = Object.values(doc.paths ?? {});
  const operations = items.flatMap((item) => Object.entries(item).filter(([method]) => METHODS.has(method)).map(([, op]) => op));
  const deliveries = Object.values(doc.webhooks ?? doc['x-webhooks'] ?? {}).flatMap((item) => Object.values(item));
  return {
    answers: reach(doc, [...operations.map((op) => op.responses), ...deliveries.map((op) => op.requestBody)]),
    requests: reach(doc, [...operations.flatMap((op) => [op.requestBody, op.parameters]), ...items.map((item) => item.parameters)]),
  };
}

/** Each schema inside a named schema, `{ at, schema }` with its JSON pointer; references are not followed (each named schema is walked on its own). */
export function* subschemas(name, schema, at = `#/components/schemas/${name}`) {
  if (!isNode(schema)) return;
  yield { at, schema };
  for (const [key, value] of Object.entries(schema)) {
    if (DATA.has(key) || key.startsWith('x-')) continue;
    if (SCHEMA_MAPS.has(key)) {
      if (isNode(value)) for (const [child, sub] of Object.entries(value)) yield* subschemas(name, sub, `${at}/${key}/${child}`);
    } else if (Array.isArray(value)) {
      for (const [i, sub] of value.entries()) yield* subschemas(name, sub, `${at}/${key}/${i}`);
    } else if (isNode(value)) {
      yield* subschemas(name, value, `${at}/${key}`);
    }
  }
}

/** The pointers of the object schemas, among the named ones, that refuse undeclared properties (`additionalProperties` or `unevaluatedProperties` false). */
export function closedObjects(doc, names) {
  const closed = [];
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
export function enumsIn(doc, names) {
  const found = [];
  for (const name of names) {
    const knownBranches = new Set();
    for (const { at, schema } of subschemas(name, doc.components.schemas[name])) {
      const open = openEnumValues(schema);
      if (open) {
        found.push({ at, kind: 'open', values: open });
        schema.anyOf.forEach((_branch, i) => knownBranches.add(`${at}/anyOf/${i}`));
      } else if (Array.isArray(schema['x-extensible-enum'])) {
        found.push({ at, kind: 'extensible', values: schema['x-extensible-enum'] });
      }
      if (knownBranches.has(at) || !(Array.isArray(schema.enum) || 'const' in schema)) continue;
      const closedBecause = typeof schema['x-enum-closed'] === 'string' ? schema['x-enum-closed'] : undefined;
      found.push({ at, kind: 'closed', values: Array.isArray(schema.enum) ? schema.enum : [schema.const], ...(closedBecause ? { closedBecause } : {}) });
    }
  }
  return found;
}

/** The node a JSON pointer names; a `$ref` segment follows the reference it stands beside (as redocly diff writes its paths). */
export function nodeAt(doc, pointer) {
  let node = doc;
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
export function evolutionBreaks(base, revision, renames = new Map()) {
  const before = schemaReach(base).answers;
  const after = [...schemaReach(revision).answers];
  const breaks = [];
  const renamed = (at) => at.replace(/^(#\/components\/schemas\/)([^/]+)/,
    (whole, head, name) => (renames.has(name) ? head + renames.get(name) : whole));
  // An object schema an answer reaches that refuses undeclared properties now: in place, or a new
  // schema the answer reaches (what the base closed already is redocly's to rate, or no change).
  const closedBefore = new Set(closedObjects(base, before).map(renamed));
  for (const at of closedObjects(revision, after)) {
    if (!closedBefore.has(at)) {
      breaks.push({ impact: 'major', kind: 'modified', where: at.slice(2), messages: ['An answer\'s schema refuses properties it does not name now: a later answer would break partners\' readers (answer-closed).'] });
    }
  }
  // An enum an answer carries that is closed now without saying why (x-enum-closed): an open one
  // closed, or lost its string fallback, or a closed one the answer reaches anew.
  const closedWithoutReason = (doc, names) => new Set(enumsIn(doc, names).filter((found) => found.kind === 'closed' && !found.closedBecause).map((found) => found.at));
  const closedEnumsBefore = new Set([...closedWithoutReason(base, before)].map(renamed));
  for (const at of closedWithoutReason(revision, after)) {
    if (!closedEnumsBefore.has(at)) {
      breaks.push({ impact: 'major', kind: 'modified', where: at.slice(2), messages: ['An answer\'s enum is closed now: a value the service adds later would break partners\' decoders (enum-closed).'] });
    }
  }
  return breaks;
}

/**
 * Whether a change that redocly diff rates is only values added to open enums (which the policy
 * lets the service add): each of its verdicts is `enum-values-added` at the known branch of an
 * open enum of the revision (the verdict's own pointer, in the document's components).
 */
export function addsToOpenEnum(revision, change) {
  return (change.verdicts ?? []).length > 0 && change.verdicts.every((verdict) => {
    const found = /^(.*)\/anyOf\/\d+\/enum$/.exec(verdict.location?.pointer ?? '');
    return verdict.ruleId === 'enum-values-added' && found !== null && openEnumValues(nodeAt(revision, found[1])) !== undefined;
  });
}
