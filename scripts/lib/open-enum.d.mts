// Types of open-enum.mjs.
/** The known values of an open enum, or undefined when `schema` is not one. */
export function openEnumValues(schema: unknown): string[] | undefined;
