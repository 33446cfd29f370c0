// Child servers of tests and benchmarks: a free loopback port, and waiting until one answers.
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface WaitOptions {
  /** What the server is called in errors, e.g. "Prism". */
  name: string;
  timeoutMs: number;
  /** Whether a response means the server is ready; any response by default. */
  ready?: (response: Response) => boolean;
  /** The child's recent output, appended to errors. */
  output?: () => string;
}

/** Polls url until the child answers as ready; fails early if the child exits. */
export async function waitForHttp(url: string, child: ChildProcess, options: WaitOptions): Promise<void> {
  const output = () => (options.output ? `\n${options.output()}` : '');
  const deadline = Date.now() + options.timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await new Promise((r) => setTimeout(r, 100)); // let the last of its output arrive
      throw new Error(`${options.name} exited early (${child.exitCode ?? child.signalCode})${output()}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (options.ready?.(response) ?? true) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${options.name} did not answer ${url} within ${options.timeoutMs} ms${output()}`);
}
