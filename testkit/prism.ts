// Starts the Prism mock of the bundled contract on a free loopback port, for tests and benchmarks.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './contract.js';
import { freePort, waitForHttp } from './processes.js';

export interface RunningServer {
  baseUrl: string;
  stop(): Promise<void>;
}

const CONTRACT_YAML = path.join(repoRoot, 'generated', 'openapi.yaml');

/** Prism's mock of the examples. */
export const startPrism = (document = CONTRACT_YAML) => startPrismWith(['mock'], document);

/**
 * Prism's validating proxy in front of `upstream`: it forwards every request and reports what
 * breaks the document in the `sl-violations` header, for the request and for the response.
 */
export const startPrismProxy = (upstream: string, document = CONTRACT_YAML) =>
  startPrismWith(['proxy'], document, [upstream]);

async function startPrismWith(command: string[], document: string, after: string[] = []): Promise<RunningServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // Started directly (not through npx) so that killing this PID stops the server; -v error
  // because Prism's default logging halves its throughput.
  const child = spawn(
    path.join(repoRoot, 'node_modules', '.bin', 'prism'),
    [...command, '-h', '127.0.0.1', '-p', String(port), '-v', 'error', document, ...after],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  try {
    await waitForHttp(baseUrl, child, { name: 'Prism', timeoutMs: 60_000, output: () => stderr });
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    baseUrl,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
