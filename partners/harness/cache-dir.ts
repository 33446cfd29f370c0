// Where the partner matrix keeps what it fetches and builds once: the Python venvs, the Maven
// repository, npm's and pip's caches, cargo's target folders. Outside the clone, in the user's cache
// folder, as Maven (~/.m2), Go and cargo keep theirs: a fresh clone, which is what CI runs on,
// otherwise filled a Maven repository and every venv anew on every run. PARTNERS_CACHE_DIR chooses
// another folder (one per run, when two matrices run at once on one machine).
import os from 'node:os';
import { userCacheDir } from '../../testkit/cache-dir.js';

/** The matrix's cache folder: PARTNERS_CACHE_DIR, else $XDG_CACHE_HOME (or ~/.cache)/hsa-fsa-checkout-contract/partners. */
export function partnersCacheDir(env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): string {
  return userCacheDir('partners', 'PARTNERS_CACHE_DIR', env, home);
}
