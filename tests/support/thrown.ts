/** What a synchronous call throws, for assertions on the error itself; a call that returns fails the test. */
export function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}
