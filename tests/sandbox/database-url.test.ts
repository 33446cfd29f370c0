// A --db or SANDBOX_DB that is a URL is never a file's name (src/sandbox/database-location.ts): the
// sandbox started with one it cannot open stops at once with one line, exit code 1, and leaves
// nothing behind in its folder (no `mysql:` folder, no .sandbox/).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FORMS } from '../../src/sandbox/database-location.js';
import { repoRoot } from '../../testkit/contract.js';
import { sandboxEnv } from '../../testkit/sandbox-process.js';

const TSX = import.meta.resolve('tsx');
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** `hsa-fsa-sandbox sandbox` in a new, empty folder, with `env` and `args`; its exit code and standard error. */
function runIn(env: NodeJS.ProcessEnv, args: string[] = []) {
  const cwd = mkdtempSync(path.join(tmpdir(), 'database-url-'));
  folders.push(cwd);
  const child = spawn(
    process.execPath,
    ['--import', TSX, path.join(repoRoot, 'src', 'cli.ts'), 'sandbox', '--quiet', '--port', '0', ...args],
    { cwd, env: { ...sandboxEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdout.resume();
  // A start that is not refused would listen: killed after a while, it fails the test on its code.
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise<{ code: number | null; stderr: string; left: string[] }>((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, left: readdirSync(cwd) });
    }),
  );
}

describe('a database URL the sandbox cannot open', () => {
  it('SANDBOX_DB=mysql://… stops the start in one line naming the forms --db takes, and creates no folder', async () => {
    const { code, stderr, left } = await runIn({ SANDBOX_DB: 'mysql://root:secret@localhost/sandbox' });
    expect(stderr).toBe(`error: --db mysql://…: the sandbox opens no mysql: URL; --db takes ${DATABASE_FORMS}\n`);
    expect(code).toBe(1);
    expect(left).toEqual([]);
  });

  it('--db postgres://… says the PostgreSQL store is not in this version, and creates no folder', async () => {
    const { code, stderr, left } = await runIn({}, ['--db', 'postgresql://sandbox:secret@db.internal/sandbox']);
    expect(stderr).toBe(
      'error: --db postgres://…: the PostgreSQL store is not available in this version of the sandbox; --db ' +
        `takes ${DATABASE_FORMS}\n`,
    );
    expect(code).toBe(1);
    expect(left).toEqual([]);
  });
});
