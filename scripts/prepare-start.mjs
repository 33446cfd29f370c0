// Run by `npm start` before the sandbox: makes what is stale, and only that, without making the API
// wait for the docs.
//   - the compiled sandbox (.build/), so that the server runs as plain JavaScript: no TypeScript
//     loader at start-up or on the request path. esbuild strips the types file by file (under a
//     second; tsc took 10 to 25 s on 2 cores, and `npm run typecheck` checks the types anyway).
//     It is not dist/, which `npm pack` rebuilds with tsc: the two never write the same files.
//   - the docs site (site/), which the sandbox serves at /docs: built in the background
//     (docs-in-background.mjs) while the sandbox starts; /docs/ says so until it is ready.
// Each is stamped with a hash of its inputs, so an unchanged checkout starts at once.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { isFresh } from '../build/docs/build-site.mjs';
import { lockHolder } from '../build/docs-in-background.mjs';
import { root } from '../build/lib/tools.ts';

const filesUnder = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(file) : [file];
  });

/** A hash of everything the compiled sandbox is made from. */
export function compiledInputsHash() {
  const hash = createHash('sha256');
  const files = [
    ...filesUnder(path.join(root, 'src')),
    path.join(root, 'tsconfig.json'),
    path.join(root, 'tsconfig.build.json'),
    path.join(root, 'package-lock.json'),
  ].sort();
  for (const file of files) if (statSync(file).isFile()) hash.update(file).update(readFileSync(file));
  return hash.digest('hex');
}

/** Where `npm start` runs the sandbox from: beside src/, so that its paths to generated/ and scripts/ hold. */
export const START_BUILD = path.join(root, '.build');
const STAMP = path.join(START_BUILD, '.inputs-sha256');
export const isCompiledFresh = () => existsSync(STAMP) && readFileSync(STAMP, 'utf8') === compiledInputsHash();

/** Compiles src/ to .build/ when it changed since the last compile: each module on its own, types stripped. */
export function compileIfStale({ quiet = false } = {}) {
  if (isCompiledFresh()) return false;
  if (!quiet) console.log('Compiling the sandbox to .build/ (first start, or its code changed)…');
  const sources = filesUnder(path.join(root, 'src')).filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'));
  buildSync({
    entryPoints: sources,
    outbase: path.join(root, 'src'),
    outdir: START_BUILD,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    tsconfig: path.join(root, 'tsconfig.build.json'),
    logLevel: 'error',
  });
  writeFileSync(STAMP, compiledInputsHash());
  return true;
}

/**
 * Starts the docs build in the background when site/ is missing or stale, and returns at once; the
 * builder outlives this script (it says when it is done on the same terminal), and a Ctrl-C of
 * `npm start` stops it with the rest.
 */
export function buildDocsInBackgroundIfStale(site = path.join(root, 'site')) {
  if (isFresh(site)) return false;
  console.log(
    `Building the docs into ${path.relative(process.cwd(), site) || '.'}/ in the background (first start, or the contract or a guide changed): /docs/ ${existsSync(path.join(site, 'index.html')) ? 'serves the previous build' : 'says so and reloads itself'} until they are ready.`,
  );
  const lock = `${site}.building`;
  if (lockHolder(lock) !== undefined) return true; // another start is building them
  const builder = spawn(process.execPath, [path.join(root, 'build', 'docs-in-background.mjs'), site], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // The lock names the builder before this script exits, so the sandbox's banner and /docs/ know at once.
  writeFileSync(lock, String(builder.pid));
  // The sandbox starting beside it comes first: on 2 cores the build would otherwise slow its start.
  try {
    setPriority(builder.pid, 10);
  } catch {
    // not allowed here: the build runs at the normal priority
  }
  builder.unref();
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  compileIfStale();
  buildDocsInBackgroundIfStale();
}
