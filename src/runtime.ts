// The Node versions this package runs on, read from package.json's `engines` so they never drift.
// better-sqlite3 13 (the sandbox's SQLite) is built for Node-API 10, which Node ships from 22.14.0
// on; an older Node crashes inside its binding instead of failing with a message, so the CLI and
// the test runner check the version first.
import { createRequire } from 'node:module';

const { engines } = createRequire(import.meta.url)('../package.json') as { engines: { node: string } };

/** `engines.node`, which this check reads in the one form the project writes: `>=MAJOR.MINOR.PATCH`. */
export const SUPPORTED_NODE = engines.node;

const parse = (version: string) => version.replace(/^v/, '').split('.').map(Number);

/** `22.14.0` as people write it: `22.14` (a patch of 0 left out). */
const shortVersion = (version: string) => version.replace(/\.0$/, '');

/**
 * Why `version` (`v20.20.2` or `20.20.2`) cannot run this package, or undefined when it can: one
 * line that names the Node it needs, the Node it found, and the two ways on.
 */
export function unsupportedNodeReason(version: string, range: string = SUPPORTED_NODE): string | undefined {
  const minimum = /^>=(\d+\.\d+\.\d+)$/.exec(range);
  if (!minimum) throw new Error(`engines.node must read ">=MAJOR.MINOR.PATCH", not "${range}"`);
  const [have, need] = [parse(version), parse(minimum[1]!)];
  for (let i = 0; i < 3; i++) {
    if (have[i]! > need[i]!) return undefined;
    if (have[i]! < need[i]!) {
      return (
        `hsa-fsa-sandbox needs Node ${shortVersion(minimum[1]!)} or newer ` +
        `(this is Node ${version.replace(/^v?/, 'v')}): ` +
        'install Node 22 or 24, or run it through npm in a clone of its repository (npm start, npm test: npm ci ' +
        'installs Node 24 there, the `node` devDependency).'
      );
    }
  }
  return undefined;
}
