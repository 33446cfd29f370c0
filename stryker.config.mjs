// Mutation testing (npm run mutation): Stryker changes the rules one at a time and runs the tests
// that reach each change; a change no test notices is a rule no test holds. mutation/main.ts
// runs it and prints the score per folder against its target.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'vitest',
  // The in-process suites: they reach every mutated file, and a mutant is active only in the
  // process that runs it (a sandbox a test spawns runs the code unmutated).
  vitest: { configFile: 'vitest.mutation.config.ts' },
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  coverageAnalysis: 'perTest',
  // A static mutant (a module-level constant) is live from import on, so no test can be named for
  // it and each would run every test (about 970, over a minute): about 6 % of the mutants, more
  // time than all the others together. They are reported as Ignored and counted apart by
  // mutation/main.ts.
  ignoreStatic: true,
  mutate: [
    'src/sandbox/domain/**/*.ts',
    'src/webhooks/**/*.ts',
    'src/sandbox/delivery/**/*.ts',
    'src/client/**/*.ts',
    // The store's lists, searches and idempotency: what keeps a page, a count and a replay exact.
    'src/sandbox/store/session-list.ts',
    'src/sandbox/store/session-search.ts',
    'src/sandbox/store/token-list.ts',
    'src/sandbox/store/token-search.ts',
    'src/sandbox/store/sessions.ts',
    'src/sandbox/store/tokens.ts',
    // The asynchronous interface over SQLite: one transaction at a time, savepoints, and group commit.
    'src/sandbox/store/sqlite-backend.ts',
    'src/sandbox/store/group-commit.ts',
    'src/sandbox/store/answer-cache.ts',
    'src/sandbox/store/fact-cache.ts',
    // When the fact cache may skip its look at the database: a missed commit is a stale answer.
    'src/sandbox/store/wal-index.ts',
    // The same on PostgreSQL, and what several sandboxes on one database rest on: the write lock and
    // the revision that keep the caches coherent, the migrations run once, the exclusive claims of
    // deliveries and listeners, the texts a NUL crosses, and the connection's URL and pool.
    'src/sandbox/store/postgres/session-list.ts',
    'src/sandbox/store/postgres/session-search.ts',
    'src/sandbox/store/postgres/token-list.ts',
    'src/sandbox/store/postgres/token-search.ts',
    'src/sandbox/store/postgres/like-pattern.ts',
    'src/sandbox/store/postgres/sessions.ts',
    'src/sandbox/store/postgres/tokens.ts',
    'src/sandbox/store/postgres/answer-cache.ts',
    'src/sandbox/store/postgres/fact-cache.ts',
    'src/sandbox/store/postgres/core.ts',
    'src/sandbox/store/postgres/transactions.ts',
    'src/sandbox/store/postgres/revision.ts',
    'src/sandbox/store/postgres/migrate.ts',
    'src/sandbox/store/postgres/deliveries.ts',
    'src/sandbox/store/postgres/listeners.ts',
    'src/sandbox/store/postgres/nul.ts',
    'src/sandbox/store/postgres/connection.ts',
    'src/sandbox/store/postgres/ssl-mode.ts',
    // The hosted pages: the form token, the pages' security headers and exits, the customer's form,
    // and what each page shows and where it leads.
    'src/sandbox/checkout/**/*.ts',
    // The request guards: the API key, CORS, a form's origin, and the Host allow-list.
    'src/sandbox/http/auth.ts',
    'src/sandbox/http/cors.ts',
    'src/sandbox/http/form-origin.ts',
    'src/sandbox/http/allowed-hosts.ts',
    // The hosted sandbox's rules: keys and their rate limit, readiness, fair turns.
    'src/sandbox/keys/**/*.ts',
    'src/sandbox/http/rate-limit.ts',
    'src/sandbox/http/probes.ts',
    'src/sandbox/http/turns.ts',
    'src/sandbox/store/api-keys.ts',
    'src/sandbox/store/rate-buckets.ts',
    'src/sandbox/store/postgres/api-keys.ts',
    'src/sandbox/store/postgres/rate-buckets.ts',
    // Types and re-exports hold no rule to mutate.
    '!src/**/types.ts',
    '!src/**/index.ts',
  ],
  // Caches, build output and the running sandbox's database, which the suites never read (a Python
  // venv's links would not even copy, and a live database's -shm may vanish while it is copied).
  ignorePatterns: [
    '.partners',
    '.sandbox',
    '.conformance',
    '.runtimes',
    '.build',
    'dist',
    'site',
    'test-results',
    'bench',
    'reports',
    '.ci',
  ],
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  reporters: ['html', 'json', 'progress'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  concurrency: 2,
  timeoutMS: 20_000,
  // The initial run is every unit and sandbox test once (about 3 minutes on 2 quiet cores); Stryker's
  // default limit of 5 minutes stopped it on a busy machine before any mutant ran.
  dryRunTimeoutMinutes: 15,
  // The targets per folder are checked by mutation/main.ts; Stryker's own threshold only colours.
  thresholds: { high: 90, low: 80, break: null },
};
