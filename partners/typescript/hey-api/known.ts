// Telling a documented value of an open enum from one a later version of the service sends. The
// generated type of an open enum is `'a' | 'b' | (string & {})` (openapi-ts.config.ts): its string
// literals are the documented values, and the compiler checks a list of them against it.

/** The documented values of an open enum type: its string literals, without the `string & {}` that stands for any other. */
export type Known<T> = T extends string ? (string extends T ? never : T) : never;

/** `true` when `Listed` names every documented value of `T`; otherwise a type that names the missing ones, so that the assignment does not compile. */
export type ListsAll<T, Listed> = [Exclude<Known<T>, Listed>] extends [never]
  ? true
  : { missing: Exclude<Known<T>, Listed> };

/** Whether `value` is one of the `known` values: narrows it to them. */
export const isKnown = <K extends string>(known: ReadonlyArray<K>, value: string): value is K =>
  (known as ReadonlyArray<string>).includes(value);
