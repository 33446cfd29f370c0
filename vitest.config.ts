import { availableParallelism } from 'node:os';
import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { unsupportedNodeReason } from './src/runtime.js';

// better-sqlite3 would crash the workers on an unsupported Node; say so before any test starts.
const tooOld = unsupportedNodeReason(process.version);
if (tooOld) throw new Error(tooOld);

// Every process a test starts runs on the Node that runs the tests: the sandbox, the contract
// runner and the packed package's consumer are spawned with process.execPath, and a program found
// on PATH (npm, npx, a tool of node_modules/.bin) finds this Node first. So the pinned runtime and
// the other LTS line (npm run test:lts) each test themselves alone.
const PATH = `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`;

// The tests of the PostgreSQL store need a server. They are a project of their own, whose global
// setup starts one server for all of them; vitest runs a project's global setup only when the run
// selects one of its files, so any other run starts no PostgreSQL.
const POSTGRES_TESTS = 'tests/postgres/**/*.test.ts';

export default defineConfig({
  test: {
    // One test file per core. vitest's default leaves a core free (one worker on two cores), but a
    // test file here spends much of its time waiting: on the sandbox processes it starts, on a
    // delivery's lease to run out, on a browser. Two workers on two cores took npm test from
    // 698 s to 463 s, with 1.5 cores busy.
    maxWorkers: availableParallelism(),
    testTimeout: 30_000,
    hookTimeout: 120_000,
    env: { PATH },
    projects: [
      {
        extends: true,
        test: {
          name: 'main',
          // The tools beside tests/ keep the tests of their own logic next to them.
          include: [
            'tests/**/*.test.ts',
            'partners/harness/**/*.test.ts',
            'conformance/**/*.test.ts',
            'mutation/**/*.test.ts',
            'bench/**/*.test.ts',
          ],
          exclude: [...configDefaults.exclude, POSTGRES_TESTS],
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: [POSTGRES_TESTS],
          globalSetup: ['tests/support/postgres-server.ts'],
          setupFiles: ['tests/support/postgres-file-databases.ts'],
        },
      },
    ],
  },
});
