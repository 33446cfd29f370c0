// Whether the incremental result already answers the mutation run whole: every mutated file and
// every test file is as the result recorded it, no file was added to either, and the scope is the
// same. Stryker would then reuse every result by its own rules, after its initial test run and the
// type checker (about 3 minutes here) have found nothing to do; so that run is skipped.

export interface RecordedRun {
  files: Record<string, { source: string }>;
  testFiles?: Record<string, { source?: string }>;
  config?: { mutate?: unknown; ignoreStatic?: unknown };
  /**
   * The test files of the suites whose tests reach no mutant, which Stryker leaves out of
   * `testFiles`, with their sources as they were (`quietTestFiles`; kept beside Stryker's file).
   */
  quietTestFiles?: Record<string, string>;
}
export interface CurrentRun {
  /** The files the scope (stryker.config.mjs's `mutate`) names now. */
  mutated: string[];
  /** The test files the mutation suites (vitest.mutation.config.ts) hold now. */
  tests: string[];
  config: { mutate?: unknown; ignoreStatic?: unknown };
  read(file: string): string | undefined;
}

/** Why the recorded result does not answer this run, or undefined when it does. */
export function whyRunAgain(recorded: RecordedRun, current: CurrentRun): string | undefined {
  if (JSON.stringify(recorded.config?.mutate) !== JSON.stringify(current.config.mutate)) return 'the scope changed';
  if (recorded.config?.ignoreStatic !== current.config.ignoreStatic) return 'the scope changed';
  const differs = (recordedFiles: Record<string, { source?: string }>, now: string[], kind: string) => {
    const names = Object.keys(recordedFiles);
    const added = now.find((file) => !(file in recordedFiles));
    if (added) return `${kind} ${added} is new`;
    for (const name of names) {
      if (!now.includes(name)) return `${kind} ${name} is gone`;
      const source = recordedFiles[name]?.source;
      if (source === undefined || current.read(name) !== source) return `${kind} ${name} changed`;
    }
    return undefined;
  };
  const quiet = Object.fromEntries(
    Object.entries(recorded.quietTestFiles ?? {}).map(([file, source]) => [file, { source }]),
  );
  return (
    differs(recorded.files, current.mutated, 'the mutated file') ??
    differs({ ...quiet, ...(recorded.testFiles ?? {}) }, current.tests, 'the test file')
  );
}

/**
 * The sources of the suites' test files that Stryker left out of its result (their tests reach no
 * mutant): a change to one of them, or a new one, still makes the next run go again.
 */
export function quietTestFiles(
  recorded: RecordedRun,
  tests: string[],
  read: (file: string) => string | undefined,
): Record<string, string> {
  const quiet: Record<string, string> = {};
  for (const file of tests) {
    const source = read(file);
    if (!(file in (recorded.testFiles ?? {})) && source !== undefined) quiet[file] = source;
  }
  return quiet;
}
