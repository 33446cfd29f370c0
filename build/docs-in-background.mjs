// Builds the docs site while the sandbox already answers: `npm start` runs this in the background
// when site/ is missing or stale (scripts/prepare-start.mjs), so that the first start does not wait
// for the docs (several seconds of Redocly, Graphviz and Scalar on 2 cores).
//   node build/docs-in-background.mjs [SITE]      (default site/)
// The site is built beside SITE (SITE.next) and swapped in whole, so /docs never serves half a
// site: until then it serves the old one, or, when there is none, a page that says the docs are
// being built and reloads itself (src/sandbox/http/docs-routes.ts). SITE.building holds this
// process's pid while it works (docsBeingBuilt in src/sandbox/http/docs-build-state.ts reads it);
// a second start finds it and builds nothing.
import { closeSync, existsSync, openSync, readFileSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { buildSite } from './docs/build-site.mjs';
import { root } from './lib/tools.ts';

/** Whether a process runs with this pid (EPERM: it runs, as another user). */
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
};

/** The pid of the live builder that holds `lock`, or undefined. */
export function lockHolder(lock) {
  let holder;
  try {
    holder = Number(readFileSync(lock, 'utf8'));
  } catch {
    return undefined;
  }
  return Number.isInteger(holder) && holder > 0 && alive(holder) ? holder : undefined;
}

/**
 * Takes SITE.building for this process; false when another live builder holds it. `npm start`
 * writes the lock with this process's pid as it spawns it (so that the sandbox, starting at the
 * same moment, already knows the docs are coming), and a dead builder's lock is taken over.
 */
export function takeLock(lock) {
  const holder = lockHolder(lock);
  if (holder === process.pid) return true;
  if (holder !== undefined) return false;
  rmSync(lock, { force: true });
  try {
    const fd = openSync(lock, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (error) {
    if (error.code === 'EEXIST') return false;
    throw error;
  }
}

/** Builds SITE.next, then puts it in SITE's place. */
export async function buildInBackground(site) {
  const [lock, next, old] = [`${site}.building`, `${site}.next`, `${site}.old`];
  if (!takeLock(lock)) return 'busy';
  try {
    await buildSite(next, { quiet: true });
    rmSync(old, { recursive: true, force: true });
    if (existsSync(site)) renameSync(site, old);
    renameSync(next, site);
    rmSync(old, { recursive: true, force: true });
    return 'built';
  } finally {
    if (lockHolder(lock) === process.pid) unlinkSync(lock);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const site = path.resolve(process.argv[2] ?? path.join(root, 'site'));
  const started = performance.now();
  try {
    const outcome = await buildInBackground(site);
    if (outcome === 'built')
      console.log(
        `Built the docs into ${path.relative(process.cwd(), site) || '.'} in ${((performance.now() - started) / 1000).toFixed(1)} s: /docs/ serves them now.`,
      );
  } catch (error) {
    console.error(
      `The docs could not be built (${error.message.split('\n')[0]}): run npm run docs to see why. The API is not affected.`,
    );
    process.exitCode = 1;
  }
}
