// Wall time of the contributor's commands, run as a contributor runs them.
import { spawnSync } from 'node:child_process';
import { repoRoot } from '../testkit/contract.js';

export interface ToolingBench {
  buildSeconds: number;
  lintSeconds: number;
}

function timed(script: string): number {
  const started = performance.now();
  const result = spawnSync('npm', ['run', '--silent', script], { cwd: repoRoot, stdio: 'ignore' });
  if (result.status !== 0) throw new Error(`npm run ${script} failed (exit ${result.status})`);
  return (performance.now() - started) / 1000;
}

export function benchTooling(): ToolingBench {
  return { buildSeconds: timed('build'), lintSeconds: timed('lint') };
}
