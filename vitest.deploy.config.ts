import path from 'node:path';
import { defineConfig } from 'vitest/config';

// npm run test:deploy: the deployment the hosting guide describes, run for real: nginx in front of
// three sandboxes on one PostgreSQL database. It needs Debian's nginx, which `npm test` must not,
// so it is apart from vitest.config.ts's projects; .ci/run installs nginx and runs it.
const PATH = `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`;

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    env: { PATH },
    include: ['deploy/**/*.test.ts'],
  },
});
