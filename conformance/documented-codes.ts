// The one rule npm run conformance adds to Schemathesis's checks: a refusal of schema-valid data
// passes when it carries one of the operation's documented 400 codes (create payment session's
// TotalAmountInvalid for amounts that do not add up, capture's PaymentSessionDoesNotExist for a
// made-up id). This reads those codes from the document, per operationId; the hook
// (documented_refusals.py) applies them.
//
// Documented means:
// - in the contract, the codes of the operation's 400 error schema, unless that 400 is marked
//   `x-undocumented` (the inferred InvalidRequestParameter of the lists, the catalog and update
//   payment token, which the reference does not give): those codes document nothing;
// - in the helpers' document, whose 400s share one error schema (SandboxError), the codes the
//   operation's 400 names in its description (`InvalidRequest`: …, `InvalidState`: …), each with
//   the rules it answers; a code the shared schema lists but the operation's 400 does not name
//   (MalformedRequest of the HTTP layer, NotFound…) is not that operation's.
// ServerError, which the reference lists among some operations' 400s, reports a failure of the
// server, not a rule of the business: it never passes.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export type DocumentedCodes = Record<string, string[]>;

/** The shared 500's code: a 400 that carries it is a failure, whatever the 400's list says. */
const NOT_BUSINESS = new Set(['ServerError']);

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Follows local `$ref`s (`#/components/…`) until an object that is not one. */
function resolve(document: JsonObject, node: Json | undefined): JsonObject | undefined {
  for (let seen = 0; isObject(node) && typeof node.$ref === 'string'; seen += 1) {
    if (seen > 32 || !node.$ref.startsWith('#/')) return undefined;
    node = node.$ref
      .slice(2)
      .split('/')
      .reduce<Json | undefined>(
        (at, key) => (isObject(at) ? at[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined),
        document,
      );
  }
  return isObject(node) ? node : undefined;
}

/** The known values of an `error` property: its `enum`, or those of its `anyOf` branches (an open enum). */
function knownValues(document: JsonObject, property: JsonObject | undefined): string[] {
  if (!property) return [];
  const own = Array.isArray(property.enum) ? property.enum.filter((v): v is string => typeof v === 'string') : [];
  const branches = Array.isArray(property.anyOf)
    ? property.anyOf.flatMap((branch) => knownValues(document, resolve(document, branch)))
    : [];
  return [...new Set([...own, ...branches])];
}

/** The known values of a response's `error`. */
function errorCodes(document: JsonObject, response: JsonObject): string[] {
  const content = isObject(response.content) ? response.content : {};
  const media = isObject(content['application/json']) ? content['application/json'] : {};
  const schema = resolve(document, media.schema);
  const properties = isObject(schema?.properties) ? schema.properties : {};
  return knownValues(document, resolve(document, properties.error));
}

/** The codes one 400 response documents; none when it is marked inferred. */
function codesOf400(document: JsonObject, response: JsonObject): string[] {
  if ('x-undocumented' in response) return [];
  const known = errorCodes(document, response);
  const description = typeof response.description === 'string' ? response.description : '';
  const named = [...description.matchAll(/`([A-Za-z]+)`/g)].map((m) => m[1]!).filter((code) => known.includes(code));
  return named.length > 0 ? [...new Set(named)] : known;
}

/** operationId → the codes its 400 documents, for every operation that has some. */
export function documentedCodes(document: object): DocumentedCodes {
  const root = document as JsonObject;
  const codes: DocumentedCodes = {};
  for (const pathItem of Object.values(isObject(root.paths) ? root.paths : {})) {
    if (!isObject(pathItem)) continue;
    for (const operation of Object.values(pathItem)) {
      if (!isObject(operation) || typeof operation.operationId !== 'string' || !isObject(operation.responses)) continue;
      const response = resolve(root, operation.responses['400']);
      const documented = (response ? codesOf400(root, response) : []).filter((code) => !NOT_BUSINESS.has(code));
      if (documented.length > 0) codes[operation.operationId] = documented;
    }
  }
  return codes;
}
