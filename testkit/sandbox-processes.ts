// Several sandbox processes on one database, each on its own port with the same API keys: what a
// hosted sandbox runs behind a load balancer, for the tests and benches of several sandboxes on
// one PostgreSQL database.
import { type SandboxProcess, type SandboxProcessOptions, startSandboxProcess } from './sandbox-process.js';

export interface SandboxGroup {
  /** The sandboxes, in the order they were asked for. */
  sandboxes: SandboxProcess[];
  /** The sandbox that answers the i-th request of a round-robin spread (any index). */
  at(i: number): SandboxProcess;
  /** Stops every sandbox still running (SIGTERM). */
  stop(): Promise<void>;
}

/**
 * Starts `count` sandboxes on the database `db` (a postgres:// URL), all at once, as a deployment
 * would: on an empty database they race for its migrations, which run once. Resolves when each
 * answers GET /health; if one fails to start, the others are stopped and the error is thrown.
 */
export async function startSandboxProcesses(
  count: number,
  db: string,
  options: Omit<SandboxProcessOptions, 'db' | 'port'> = {},
): Promise<SandboxGroup> {
  const starts = await Promise.allSettled(Array.from({ length: count }, () => startSandboxProcess({ ...options, db })));
  const sandboxes = starts.flatMap((start) => (start.status === 'fulfilled' ? [start.value] : []));
  const failed = starts.find((start) => start.status === 'rejected');
  const stop = async () => {
    await Promise.all(sandboxes.map((sandbox) => sandbox.stop()));
  };
  if (failed) {
    await stop();
    throw failed.reason;
  }
  return { sandboxes, at: (i) => sandboxes[i % sandboxes.length]!, stop };
}
