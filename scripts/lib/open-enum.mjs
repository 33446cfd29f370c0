// The contract's one spelling of an open (extensible) enum, which the evolution policy gives every
// enum of an answer or a delivery: `anyOf: [{type: string, enum: [known…]}, {type: string}]`, the
// known values and any other string, with at most `type: string` and annotations beside. Both the
// OpenAPI 3.0 companion (openapi-30.mjs) and the TypeScript types (build.mjs) restate it, and the
// spec tests find enums by it.

const BRANCH_KEYS = new Set(['type', 'enum', 'description']);

/** The known values of an open enum, or undefined when `schema` is not one. */
export function openEnumValues(schema) {
  if (schema === null || typeof schema !== 'object') return undefined;
  const branches = schema.anyOf;
  if (('type' in schema && schema.type !== 'string') || !Array.isArray(branches) || branches.length !== 2) return undefined;
  const onlyString = (branch) => branch?.type === 'string' && Object.keys(branch).every((key) => BRANCH_KEYS.has(key));
  if (!branches.every(onlyString)) return undefined;
  const known = branches.filter((branch) => Array.isArray(branch.enum));
  if (known.length !== 1 || !known[0].enum.every((value) => typeof value === 'string')) return undefined;
  return known[0].enum;
}
