// The store's interfaces (store.ts) as the PostgreSQL repositories answer them: each method returns
// a Promise of what it returns today. Only for typing, until store.ts itself is asynchronous.

/** Every method of T, answering a Promise of its result. */
export type Async<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : T[K];
};
