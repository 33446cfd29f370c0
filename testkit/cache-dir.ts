// Where the project's tools keep what they fetch or build once per machine: outside the clone, in
// the user's cache folder, as Maven (~/.m2), Go and cargo keep theirs, so that a fresh clone (what CI
// runs on) finds it there. Each tool has its own folder, and a variable that chooses another.
import os from 'node:os';
import path from 'node:path';

/** `variable` when it is set, else $XDG_CACHE_HOME (or ~/.cache)/hsa-fsa-checkout-contract/`kind`. */
export function userCacheDir(
  kind: string,
  variable: string,
  env: NodeJS.ProcessEnv = process.env,
  home: string = os.homedir(),
): string {
  const chosen = env[variable];
  if (chosen) return path.resolve(chosen);
  // The XDG base directory rule: a relative XDG_CACHE_HOME is invalid and is ignored.
  const base =
    env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(home, '.cache');
  return path.join(base, 'hsa-fsa-checkout-contract', kind);
}
