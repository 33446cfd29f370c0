// Start-up time of the sandbox as `npm start` runs it (compiled, on a new SQLite file): from the
// spawn of the process to the first answered request. The median of five starts.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repoRoot } from '../testkit/contract.js';
import { freePort } from '../testkit/processes.js';
import { sandboxEnv } from '../testkit/sandbox-process.js';

export interface StartupBench {
  runsMs: number[];
  medianMs: number;
}

async function startOnce(db: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [path.join('.build', 'cli.js'), 'sandbox', '--quiet', '--host', '127.0.0.1', '--port', String(port), '--db', db],
    { cwd: repoRoot, stdio: 'ignore', env: sandboxEnv() },
  );
  try {
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) return performance.now() - started;
      } catch {
        // not listening yet
      }
      if (child.exitCode !== null) throw new Error('The sandbox exited while starting');
      if (performance.now() - started > 30_000) throw new Error('The sandbox did not start within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
  }
}

export async function benchStartup(runs = 5): Promise<StartupBench> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-startup-bench-'));
  try {
    const runsMs: number[] = [];
    for (let n = 0; n < runs; n++) runsMs.push(await startOnce(path.join(dir, `start-${n}.db`)));
    return { runsMs, medianMs: [...runsMs].sort((a, b) => a - b)[Math.floor(runs / 2)]! };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
