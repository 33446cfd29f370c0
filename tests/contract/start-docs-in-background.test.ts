// `npm start` does not wait for the docs: when the site is missing or stale it starts a builder in
// the background (scripts/prepare-start.mjs) and the sandbox answers at once. These tests run that
// path on a site of their own: the lock names the builder before prepare-start returns, so the
// sandbox knows the docs are coming; the site appears whole (built beside it, then swapped in);
// the lock goes; a second start builds nothing while a builder lives; a dead builder's lock is
// taken over. (tests/sandbox/docs-routes.test.ts covers what /docs answers meanwhile.)
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: the start scripts are plain JavaScript, without types.
import { buildDocsInBackgroundIfStale } from '../../scripts/prepare-start.mjs';
// @ts-expect-error: as above.
import { lockHolder, takeLock } from '../../build/docs-in-background.mjs';
// @ts-expect-error: as above.
import { isFresh } from '../../build/docs/build-site.mjs';
import { docsBeingBuilt } from '../../src/sandbox/http/docs-build-state.js';
import { until } from '../../testkit/webhook-receiver.js';

const dir = mkdtempSync(path.join(tmpdir(), 'start-docs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the docs, built in the background by npm start', () => {
  it('replaces a stale site whole, names the builder in the lock at once, and leaves nothing behind', async () => {
    const site = path.join(dir, 'site');
    mkdirSync(site);
    writeFileSync(path.join(site, 'index.html'), 'the previous build');
    writeFileSync(path.join(site, '.inputs-sha256'), 'a stamp of other inputs');
    expect(buildDocsInBackgroundIfStale(site)).toBe(true);
    // Before prepare-start returns, the lock names a live builder: the sandbox's banner and /docs/ see it.
    const builder = lockHolder(`${site}.building`);
    expect(builder).toEqual(expect.any(Number));
    expect(docsBeingBuilt(site)).toBe(true);
    // Meanwhile the previous build is still served as it was.
    expect(readFileSync(path.join(site, 'index.html'), 'utf8')).toBe('the previous build');
    // A second start while it builds starts no second builder.
    expect(buildDocsInBackgroundIfStale(site)).toBe(true);
    expect(lockHolder(`${site}.building`)).toBe(builder);
    await until(() => !existsSync(`${site}.building`), 110_000);
    expect(isFresh(site)).toBe(true);
    expect(readFileSync(path.join(site, 'index.html'), 'utf8')).toContain('Quick start');
    expect([existsSync(`${site}.next`), existsSync(`${site}.old`), docsBeingBuilt(site)]).toEqual([
      false,
      false,
      false,
    ]);
    // Fresh now: the next start builds nothing.
    expect(buildDocsInBackgroundIfStale(site)).toBe(false);
  }, 120_000);

  it('takes over the lock of a builder that died, and leaves a live one alone', () => {
    const lock = path.join(dir, 'other.building');
    writeFileSync(lock, '2147483646');
    expect(takeLock(lock)).toBe(true);
    expect(readFileSync(lock, 'utf8')).toBe(String(process.pid));
    // Held by a live process that is not this one (this process's parent stands in for it).
    writeFileSync(lock, String(process.ppid));
    expect(takeLock(lock)).toBe(false);
    expect(readFileSync(lock, 'utf8')).toBe(String(process.ppid));
  });
});
