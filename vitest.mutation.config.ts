// The suites npm run mutation runs against each mutant: the tests that run the code in the test's
// own process. The contract, browser, package and spec suites drive processes, browsers or
// documents, and so do the PostgreSQL tests of sandbox processes: a mutant is live only in the
// process that runs it, so they reach none that the others do not.
import { configDefaults, defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// Stryker runs its own test runners, one per its concurrency: the base's workers are not its.
const { projects: _projects, maxWorkers: _maxWorkers, ...test } = base.test ?? {};

/** The unit and sandbox tests: SQLite in memory, or on a temporary file. */
export const MUTATION_MAIN_TESTS = ['tests/unit/**/*.test.ts', 'tests/sandbox/**/*.test.ts'];

/** The PostgreSQL store's tests of its code in the test's process, on the run's server. */
export const MUTATION_POSTGRES_TESTS = [
  'tests/postgres/**/*.test.ts',
  '!tests/postgres/sandboxes-*.test.ts',
  '!tests/postgres/contract-workflows.test.ts',
  '!tests/postgres/database-url.test.ts',
];

/** Every test file of the mutation suites, `!pattern` taking some away (mutation/main.ts reads it). */
export const MUTATION_TEST_FILES = [...MUTATION_MAIN_TESTS, ...MUTATION_POSTGRES_TESTS];

const included = (patterns: string[]) => patterns.filter((pattern) => !pattern.startsWith('!'));
const excluded = (patterns: string[]) =>
  patterns.filter((pattern) => pattern.startsWith('!')).map((pattern) => pattern.slice(1));

export default defineConfig({
  ...base,
  test: {
    ...test,
    // The projects of the base config would choose other files.
    projects: [
      { extends: true, test: { name: 'main', include: MUTATION_MAIN_TESTS } },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: included(MUTATION_POSTGRES_TESTS),
          exclude: [...configDefaults.exclude, ...excluded(MUTATION_POSTGRES_TESTS)],
          // Started once per test runner: each of Stryker's runners has a server of its own.
          globalSetup: ['tests/support/postgres-server.ts'],
          setupFiles: ['tests/support/postgres-file-databases.ts'],
        },
      },
    ],
  },
});
