// The contract's one spelling of an open (extensible) enum, which the evolution policy gives every
// enum of an answer or a delivery: `anyOf: [{type: string, enum: [known…]}, {type: string}]`, the
// known values and any other string, with at most `type: string` and annotations beside. The mock
// reads 400 codes by it; the OpenAPI 3.0 companion (build/lib/openapi-30.ts) and the TypeScript
// types (build/documents.ts) restate it, and the spec tests find enums by it.
// It imports nothing: the build runs it on Node's own type stripping, which follows no `.js` import.

const BRANCH_KEYS = new Set(['type', 'enum', 'description']);

type Branch = { type?: unknown; enum?: unknown };

/** The known values of an open enum, or undefined when `schema` is not one. */
export function openEnumValues(schema: unknown): string[] | undefined {
  if (schema === null || typeof schema !== 'object') return undefined;
  const { anyOf: branches } = schema as { anyOf?: unknown };
  if (('type' in schema && schema.type !== 'string') || !Array.isArray(branches) || branches.length !== 2)
    return undefined;
  const onlyString = (branch: unknown) =>
    typeof branch === 'object' &&
    branch !== null &&
    (branch as Branch).type === 'string' &&
    Object.keys(branch).every((key) => BRANCH_KEYS.has(key));
  if (!branches.every(onlyString)) return undefined;
  const known = (branches as Branch[]).filter((branch) => Array.isArray(branch.enum));
  const values = known[0]?.enum as unknown[] | undefined;
  if (known.length !== 1 || !values?.every((value) => typeof value === 'string')) return undefined;
  return values as string[];
}
