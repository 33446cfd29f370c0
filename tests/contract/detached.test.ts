// A sandbox started in the background by a shell that then exits (the hosting guide's loop):
// with --detached it keeps serving; without, it stops as an orphan, as `npm start` needs it to
// (npm does not pass its SIGTERM on). Either way, the JSON log says why it stopped.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../testkit/processes.js';
import { repoRoot } from '../../testkit/contract.js';
import { sandboxEnv } from '../../testkit/sandbox-process.js';

const folder = mkdtempSync(path.join(tmpdir(), 'detached-'));
const started: number[] = [];
afterAll(() => {
  for (const pid of started) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
  rmSync(folder, { recursive: true, force: true });
});

/**
 * Starts a sandbox in the background of a shell, and ends the shell once the sandbox answers, as
 * a terminal closed after the guide's loop would; its pid and log file.
 */
async function startInBackground(...args: string[]) {
  const port = await freePort();
  const log = path.join(folder, `sandbox-${port}.log`);
  const shell = spawn(
    'sh',
    [
      '-c',
      `"$0" --import tsx src/cli.ts sandbox --port ${port} --db :memory: --rate-limit off --log json ${args.join(' ')} > "$1" 2>&1 & echo $!; read done`,
      process.execPath,
      log,
    ],
    { cwd: repoRoot, env: sandboxEnv(), stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const [pidLine] = (await once(shell.stdout, 'data')) as [Buffer];
  const pid = Number(pidLine.toString().trim());
  started.push(pid);
  const health = () =>
    fetch(`http://127.0.0.1:${port}/health`).then(
      (r) => r.status,
      () => 'refused',
    );
  await expect.poll(health, { timeout: 20_000, interval: 200 }).toBe(200);
  shell.stdin.end();
  await once(shell, 'exit');
  return { pid, log, health };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('a sandbox whose starting shell has exited', () => {
  it('keeps serving with --detached', async () => {
    const sandbox = await startInBackground('--detached');
    // The orphan watch looks twice a second: by now it would have stopped.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await sandbox.health()).toBe(200);
    process.kill(sandbox.pid, 'SIGTERM');
    await expect.poll(() => alive(sandbox.pid), { timeout: 15_000, interval: 100 }).toBe(false);
    expect(readFileSync(sandbox.log, 'utf8')).toContain('"msg":"Sandbox stopping","reason":"SIGTERM"');
  });

  it('stops as an orphan without it, and says so', async () => {
    const sandbox = await startInBackground();
    await expect.poll(() => alive(sandbox.pid), { timeout: 20_000, interval: 100 }).toBe(false);
    expect(readFileSync(sandbox.log, 'utf8')).toContain(
      '"msg":"Sandbox stopping","reason":"the process that started it exited"',
    );
  });
});
