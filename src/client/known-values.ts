// The documented values of an open enum. Every enum the service sends is open (the Versioning and
// evolution guide): its generated type is `"a" | "b" | (string & {})`, which accepts any string and
// still offers the documented values to an editor. KnownValues keeps only those values, for code
// that must handle each documented one (a switch that the compiler checks for completeness).

/** `KnownValues<"a" | "b" | (string & {})>` is `"a" | "b"`; a plain `string` gives `never`. */
export type KnownValues<T> = T extends unknown ? (string extends T ? never : T) : never;

/** True when `value` is one of `known`, the documented values of an open enum; narrows it. */
export function isKnownValue<const Known extends string>(
  known: readonly Known[],
  value: string | null | undefined,
): value is Known {
  return (known as readonly unknown[]).includes(value);
}
