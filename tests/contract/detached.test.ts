// A sandbox started in the background by a shell that then exits (the hosting guide's loop):
// with --detached it keeps serving; without, it stops as an orphan, as `npm start` needs it to
// (npm does not pass its SIGTERM on). Either way, the JSON log says why it stopped.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../testkit/processes.js';
import { repoRoot } from '../../testkit/contract.js';
import { sandboxEnv, startSandboxProcess } from '../../testkit/sandbox-process.js';

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
 * Starts a sandbox in the background of a shell, and ends the shell once the sandbox answers (as a
 * terminal closed after the guide's loop would), or at once with `shellExits: 'at once'`, while the
 * sandbox is still starting; its pid, log file and health.
 */
async function startInBackground(args: string[], shellExits: 'once it answers' | 'at once' = 'once it answers') {
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
  if (shellExits === 'once it answers') await expect.poll(health, { timeout: 20_000, interval: 200 }).toBe(200);
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
    const sandbox = await startInBackground(['--detached']);
    // The orphan watch looks twice a second: by now it would have stopped.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await sandbox.health()).toBe(200);
    process.kill(sandbox.pid, 'SIGTERM');
    await expect.poll(() => alive(sandbox.pid), { timeout: 15_000, interval: 100 }).toBe(false);
    expect(readFileSync(sandbox.log, 'utf8')).toContain('"msg":"Sandbox stopping","reason":"SIGTERM"');
  });

  it('outlives a hang-up with --detached, as its terminal closing sends', async () => {
    const sandbox = await startInBackground(['--detached']);
    process.kill(sandbox.pid, 'SIGHUP');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await sandbox.health()).toBe(200);
    process.kill(sandbox.pid, 'SIGTERM');
    await expect.poll(() => alive(sandbox.pid), { timeout: 15_000, interval: 100 }).toBe(false);
  });

  it('stops as an orphan without it, and says so', async () => {
    const sandbox = await startInBackground([]);
    await expect.poll(() => alive(sandbox.pid), { timeout: 20_000, interval: 100 }).toBe(false);
    expect(readFileSync(sandbox.log, 'utf8')).toContain(
      '"msg":"Sandbox stopping","reason":"the process that started it exited"',
    );
  });

  it('takes as its parent the one it started with: one gone before the watch begins has left an orphan', async () => {
    // A command that imports the watch, waits until the shell that started it is gone (as a
    // sandbox still starting would), and only then begins watching.
    const marker = path.join(folder, 'imported');
    const script = [
      "import { exitWhenOrphaned } from './src/orphan.ts';",
      `import { writeFileSync } from 'node:fs';`,
      `const parent = process.ppid;`,
      `writeFileSync(${JSON.stringify(marker)}, '');`,
      `while (process.ppid === parent) await new Promise((resolve) => setTimeout(resolve, 20));`,
      `exitWhenOrphaned(() => { console.log('stopped as an orphan'); process.exit(0); }, 20);`,
      `setTimeout(() => process.exit(3), 5000);`,
    ].join('\n');
    const log = path.join(folder, 'watch.log');
    const shell = spawn(
      'sh',
      [
        '-c',
        `"$0" --import tsx --input-type=module -e "$1" > "$2" 2>&1 & echo $!; read done`,
        process.execPath,
        script,
        log,
      ],
      { cwd: repoRoot, stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const [pidLine] = (await once(shell.stdout, 'data')) as [Buffer];
    const pid = Number(pidLine.toString().trim());
    started.push(pid);
    await expect.poll(() => existsSync(marker), { timeout: 20_000, interval: 50 }).toBe(true);
    shell.stdin.end();
    await expect.poll(() => alive(pid), { timeout: 10_000, interval: 50 }).toBe(false);
    expect(readFileSync(log, 'utf8')).toBe('stopped as an orphan\n');
  });

  it('stops gracefully on a hang-up without it, and says so', async () => {
    const sandbox = await startSandboxProcess({ quiet: false, args: ['--log', 'json'] });
    process.kill(sandbox.pid, 'SIGHUP');
    expect(await sandbox.exitCode).toBe(0);
    expect(sandbox.output()).toContain('"msg":"Sandbox stopping","reason":"SIGHUP"');
  });
});
