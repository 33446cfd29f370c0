// A Python virtual environment in the matrix's cache, holding exact versions from PyPI. It is made
// once and reused while its requirements stay the same.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RowContext } from '../row.js';

/** The venv's folder; `${venv}/bin/python` and its scripts are ready to run. */
export async function pythonVenv(ctx: RowContext, name: string, requirements: string[]): Promise<string> {
  const venv = path.join(ctx.cacheDir, `venv-${name}`);
  const stamp = path.join(venv, '.requirements');
  const wanted = `${requirements.join('\n')}\n`;
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return venv;
  rmSync(venv, { recursive: true, force: true });
  ctx.log(`making a Python venv with ${requirements.join(' ')}`);
  await ctx.run('python3', ['-m', 'venv', venv]);
  await ctx.run(path.join(venv, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', ...requirements]);
  writeFileSync(stamp, wanted);
  return venv;
}
