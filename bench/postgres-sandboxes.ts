// The PostgreSQL targets of the sandbox bench (sandbox.ts): the compiled sandbox, as `npm start`
// runs it, on an embedded PostgreSQL (testkit/postgres.ts), once as one process and once as two
// processes on one database, as a hosted sandbox runs behind a load balancer. Each target has a
// fresh database of its own, so that one target's creates never lengthen the other's tables.
import { freshDatabase, startTestPostgres } from '../testkit/postgres.js';
import { startSandboxProcess } from '../testkit/sandbox-process.js';
import { startSandboxProcesses } from '../testkit/sandbox-processes.js';

export const ONE_ON_POSTGRES = 'sandbox on PostgreSQL';
export const TWO_ON_POSTGRES = 'two sandboxes on PostgreSQL';

export interface PostgresSandboxes {
  /** One sandbox on a database of its own: its base URL. */
  one: string[];
  /** Two sandboxes on one other database: their base URLs, the load split between them. */
  two: string[];
  /** Stops the sandboxes, then the PostgreSQL server (its data removed). */
  stop(): Promise<void>;
}

/** Starts PostgreSQL and the three sandboxes on it; stops whatever started if one fails. */
export async function startPostgresSandboxes(): Promise<PostgresSandboxes> {
  const server = await startTestPostgres();
  const stops: Array<() => Promise<void>> = [server.stop];
  const stop = async () => {
    for (const each of [...stops].reverse()) await each();
  };
  try {
    const [oneDb, twoDb] = [await freshDatabase(server.url, 'bench_one'), await freshDatabase(server.url, 'bench_two')];
    const one = await startSandboxProcess({ db: oneDb, compiled: true });
    stops.push(one.stop);
    const two = await startSandboxProcesses(2, twoDb, { compiled: true });
    stops.push(two.stop);
    return { one: [one.baseUrl], two: two.sandboxes.map((sandbox) => sandbox.baseUrl), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
