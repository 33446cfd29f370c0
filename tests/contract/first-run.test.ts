// The sandbox and the mock as a new user starts them: `npm start` stops whichever process of its
// chain gets SIGTERM, prints a line per request, starts empty with --reset; `npm run mock` takes
// --port like the sandbox.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../testkit/contract.js';
import { freePort, waitForHttp } from '../../testkit/processes.js';
import { sandboxEnv as env } from '../../testkit/sandbox-process.js';

const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-first-run-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function npm(args: string[], port: number, readyPath = '/health') {
  const child = spawn('npm', ['--silent', ...args], { cwd: repoRoot, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  await waitForHttp(`http://127.0.0.1:${port}${readyPath}`, child, {
    name: args.join(' '),
    timeoutMs: 60_000,
    output: () => output,
  });
  return { child, output: () => output };
}

/** Every live process below pid, from /proc. */
function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const walk = (p: number) => {
    for (const c of parents.get(p) ?? []) {
      found.push(c);
      walk(c);
    }
  };
  walk(pid);
  return found;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
};

async function closedWithin(port: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(500) });
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

describe('npm start', () => {
  it.each(['npm', 'the server'])(
    'stops, and frees its port, when %s gets SIGTERM',
    async (target) => {
      const port = await freePort();
      const { child } = await npm(
        ['start', '--', '--port', String(port), '--db', path.join(dir, `${target}.db`), '--quiet'],
        port,
      );
      const chain = [child.pid!, ...descendants(child.pid!)];
      process.kill(target === 'npm' ? child.pid! : chain.at(-1)!, 'SIGTERM');
      expect(await closedWithin(port, 10_000)).toBe(true);
      await new Promise((r) => setTimeout(r, 500));
      expect(chain.filter(alive)).toEqual([]);
    },
    90_000,
  );

  it('prints a line per request, and --reset starts from an empty database', async () => {
    const db = path.join(dir, 'reset.db');
    const port = await freePort();
    const first = await npm(['start', '--', '--port', String(port), '--db', db], port);
    const key = { 'x-service-api-key': 'sandbox-dev-key', 'content-type': 'application/json' };
    const body = JSON.stringify({
      total_amount: 100,
      amount_details: { total_additional_charges: 0, total_discounts: 0 },
      success_url: 'https://a.example',
      failure_url: 'https://a.example',
      order_items: [
        { name: 'A', quantity: 1, price: 100, amount_details: { total_additional_charges: 0, total_discounts: 0 } },
      ],
    });
    expect(
      (
        await fetch(`http://127.0.0.1:${port}/payments/v1/create_payment_session`, {
          method: 'POST',
          headers: key,
          body,
        })
      ).status,
    ).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expect(first.output()).toMatch(/^POST \/payments\/v1\/create_payment_session 200 \d+\.\d ms$/m);
    first.child.kill('SIGTERM');
    expect(await closedWithin(port, 10_000)).toBe(true);

    const again = await npm(['start', '--', '--port', String(port), '--db', db, '--quiet'], port);
    const count = async () =>
      (
        (await (await fetch(`http://127.0.0.1:${port}/payments/v1/payment_sessions`, { headers: key })).json()) as {
          pagination: { count: number };
        }
      ).pagination.count;
    expect(await count()).toBe(1);
    // It found the docs fresh, or builds them in the background and says so; either way it says
    // where they are, and serves them once built (503 and a page that reloads itself until then).
    expect(again.output()).toMatch(
      new RegExp(
        `^  Docs:      http://127\\.0\\.0\\.1:${port}/docs/ \\((guides, the reference, and a console that sends requests here(; being rebuilt in the background)?|being built in the background: the page reloads itself until they are ready)\\)$`,
        'm',
      ),
    );
    let docs = await fetch(`http://127.0.0.1:${port}/docs/`);
    for (const deadline = Date.now() + 90_000; docs.status === 503 && Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, 500));
      docs = await fetch(`http://127.0.0.1:${port}/docs/`);
    }
    expect([docs.status, await docs.text()]).toEqual([200, expect.stringContaining('Quick start')]);
    again.child.kill('SIGTERM');
    expect(await closedWithin(port, 10_000)).toBe(true);

    const reset = await npm(['start', '--', '--port', String(port), '--db', db, '--reset', '--quiet'], port);
    expect(await count()).toBe(0);
    expect(reset.output()).toContain('(reset)');
    reset.child.kill('SIGTERM');
  }, 240_000);
});

describe('--reset', () => {
  it('refuses a file that is no sandbox database, and leaves it as it was', async () => {
    const { writeFileSync } = await import('node:fs');
    const { spawnSync } = await import('node:child_process');
    const precious = path.join(dir, 'precious.txt');
    writeFileSync(precious, 'precious');
    const result = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/cli.ts',
        'sandbox',
        '--reset',
        '--db',
        precious,
        '--port',
        String(await freePort()),
        '--quiet',
      ],
      { cwd: repoRoot, env: env(), encoding: 'utf8', timeout: 30_000 },
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^error: /m);
    expect(readFileSync(precious, 'utf8')).toBe('precious');
  }, 60_000);
});

describe('npm run mock', () => {
  it('takes --port like the sandbox', async () => {
    const port = await freePort();
    const { child } = await npm(
      ['run', 'mock', '--', '-p', String(port), '-v', 'error'],
      port,
      '/payments/v1/payment_sessions',
    );
    const reply = await fetch(`http://127.0.0.1:${port}/payments/v1/payment_sessions`, {
      headers: { 'x-service-api-key': 'k' },
    });
    expect(reply.status).toBe(200);
    child.kill('SIGTERM');
    expect(await closedWithin(port, 10_000)).toBe(true);
  }, 90_000);
});
