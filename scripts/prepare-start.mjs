// Run by `npm start` before the sandbox: rebuilds what is stale, and only that.
//   - the docs site (site/), which the sandbox serves at /docs;
//   - the compiled sandbox (.build/), so that the server runs as plain JavaScript: no TypeScript
//     loader at start-up or on the request path. It is not dist/, which `npm pack` rebuilds from
//     scratch: the two never write the same files.
// Each is stamped with a hash of its inputs, so an unchanged checkout starts at once.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildSite, isFresh } from './docs/build-site.mjs';
import { root, runTool } from './lib/tools.mjs';

const filesUnder = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
  const file = path.join(dir, e.name);
  return e.isDirectory() ? filesUnder(file) : [file];
});

/** A hash of everything the compiled sandbox is made from. */
export function compiledInputsHash() {
  const hash = createHash('sha256');
  const files = [...filesUnder(path.join(root, 'src')), path.join(root, 'tsconfig.json'), path.join(root, 'tsconfig.build.json'), path.join(root, 'package-lock.json')].sort();
  for (const file of files) if (statSync(file).isFile()) hash.update(file).update(readFileSync(file));
  return hash.digest('hex');
}

/** Where `npm start` runs the sandbox from: beside src/, so that its paths to generated/ and scripts/ hold. */
export const START_BUILD = path.join(root, '.build');
const STAMP = path.join(START_BUILD, '.inputs-sha256');
export const isCompiledFresh = () => existsSync(STAMP) && readFileSync(STAMP, 'utf8') === compiledInputsHash();

/** Compiles src/ to .build/ when it changed since the last compile. */
export function compileIfStale({ quiet = false } = {}) {
  if (isCompiledFresh()) return false;
  if (!quiet) console.log('Compiling the sandbox to .build/ (first start, or its code changed)…');
  runTool('tsc', ['-p', 'tsconfig.build.json', '--outDir', START_BUILD, '--declaration', 'false'], { quiet: true });
  writeFileSync(STAMP, compiledInputsHash());
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const site = path.join(root, 'site');
  if (!isFresh(site)) {
    console.log('Building the docs into site/ (first start, or the contract or a guide changed)…');
    await buildSite(site, { quiet: true });
  }
  compileIfStale();
}
