// The suites npm run mutation runs against each mutant: the unit and sandbox tests, which run the
// code in the test's own process. The contract, browser, package and spec suites drive processes,
// browsers or documents, and reach no mutant that these do not.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// Without the projects of the base config, which would choose the files instead of include.
const { projects: _projects, ...test } = base.test ?? {};

export default defineConfig({
  ...base,
  test: { ...test, include: ['tests/unit/**/*.test.ts', 'tests/sandbox/**/*.test.ts'] },
});
