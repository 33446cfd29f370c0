// Starts the sandbox CLI as a child process on a free loopback port, as a user would run it, and
// stops it: gracefully (SIGTERM) or as a crash (SIGKILL), for tests and benchmarks.
//
// The child is `node --import tsx src/cli.ts sandbox --quiet …`, not `node_modules/.bin/tsx`: the
// tsx CLI runs the program in a second node process and relays only catchable signals to it, so a
// SIGKILL of its PID would leave the real server running. Loading tsx as a loader in one process
// makes the PID the server itself, so that SIGKILL is a real crash of the server.
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './contract.js';
import { freePort, waitForHttp } from './processes.js';

export const SANDBOX_API_KEY = 'sandbox-dev-key';

export interface SandboxProcess {
  baseUrl: string;
  pid: number;
  /** The --db argument: a file path, :memory: or a postgres:// URL. */
  db: string;
  /** SIGTERM (the CLI closes the server and the database), then waits for the exit. */
  stop(): Promise<void>;
  /** SIGKILL: a crash. Waits for the exit. */
  kill(): Promise<void>;
  /** Its exit code once it has exited (null when a signal ended it). */
  exitCode: Promise<number | null>;
  /** The end of what it has printed (its standard output and error), up to 4,000 characters. */
  output(): string;
}

export interface SandboxProcessOptions {
  /** A database file, ':memory:' (the default), or a postgres:// URL. */
  db?: string;
  /** How long to wait for GET /health to answer 200. */
  timeoutMs?: number;
  /** More arguments of `sandbox` (--webhook-url …). */
  args?: string[];
  /** Run the compiled .build/cli.js, as `npm start` does, instead of the TypeScript sources. */
  compiled?: boolean;
  /** false: the line per request stays on, as `npm start` runs it (--quiet by default). */
  quiet?: boolean;
  /**
   * A file that takes the sandbox's standard output instead of this process: the bench's, where a
   * pipe would make the load generator read every line it causes (a terminal is another process).
   */
  stdoutFile?: string;
  /** A port of the caller's choosing, instead of a free one picked here. */
  port?: number;
  /** Variables the CLI reads (SANDBOX_API_KEYS, …), over an environment cleared of them. */
  env?: NodeJS.ProcessEnv;
  /**
   * --rate-limit: off by default here, since tests and benches send one key's requests as fast as
   * they can; a test of the limit gives one.
   */
  rateLimit?: string;
}

/** Children still running, killed if the test process exits without stopping them. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
  });
}

async function signal(child: ChildProcess, name: NodeJS.Signals, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const done = exited(child);
  child.kill(name);
  // A server that does not stop on SIGTERM within the grace period is killed.
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await done;
  clearTimeout(timer);
  running.delete(child);
}

/** The caller's environment without the variables the CLI reads, so that the defaults apply (key sandbox-dev-key). */
export function sandboxEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of [
    'SANDBOX_API_KEYS',
    'SANDBOX_DB',
    'HOST',
    'PORT',
    'SANDBOX_WEBHOOK_URL',
    'SANDBOX_WEBHOOK_SECRET',
    'SANDBOX_PUBLIC_URL',
    'SANDBOX_RATE_LIMIT',
    'SANDBOX_ALLOWED_HOSTS',
  ])
    delete env[name];
  return env;
}

async function startOnce(
  db: string,
  timeoutMs: number,
  args: string[] = [],
  compiled = false,
  quiet = true,
  stdoutFile?: string,
  chosenPort?: number,
  env: NodeJS.ProcessEnv = {},
  rateLimit = 'off',
): Promise<SandboxProcess> {
  const port = chosenPort ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const entry = compiled ? [path.join('.build', 'cli.js')] : ['--import', 'tsx', path.join('src', 'cli.ts')];
  const child = spawn(
    process.execPath,
    [
      ...entry,
      'sandbox',
      ...(quiet ? ['--quiet'] : []),
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--db',
      db,
      '--rate-limit',
      rateLimit,
      ...args,
    ],
    {
      cwd: repoRoot,
      stdio: ['ignore', stdoutFile === undefined ? 'pipe' : openSync(stdoutFile, 'a'), 'pipe'],
      env: { ...sandboxEnv(), ...env },
    },
  );
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  child.stdout?.on('data', (chunk) => (output = (output + chunk).slice(-4000)));
  child.stderr?.on('data', (chunk) => (output = (output + chunk).slice(-4000)));
  try {
    await waitForHttp(`${baseUrl}/health`, child, {
      name: 'The sandbox',
      timeoutMs,
      ready: (r) => r.status === 200,
      output: () => output,
    });
  } catch (error) {
    await signal(child, 'SIGKILL');
    throw error;
  }
  return {
    baseUrl,
    pid: child.pid!,
    db,
    stop: () => signal(child, 'SIGTERM'),
    kill: () => signal(child, 'SIGKILL'),
    exitCode: exited(child).then(() => child.exitCode),
    output: () => output,
  };
}

/** Starts the sandbox and resolves once GET /health answers 200. */
export async function startSandboxProcess(options: SandboxProcessOptions = {}): Promise<SandboxProcess> {
  const db = options.db ?? ':memory:';
  const timeoutMs = options.timeoutMs ?? 30_000;
  // freePort releases the port before the child binds it; another process may take it meanwhile.
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startOnce(
        db,
        timeoutMs,
        options.args,
        options.compiled,
        options.quiet ?? true,
        options.stdoutFile,
        options.port,
        options.env,
        options.rateLimit,
      );
    } catch (error) {
      lastError = error;
      if (!/EADDRINUSE/.test((error as Error).message)) throw error;
    }
  }
  throw lastError;
}
