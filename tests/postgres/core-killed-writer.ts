// A sandbox process killed in the middle of a write: it opens the store's core on the database,
// begins a write transaction (which takes the write lock), writes a customer, says so on one line,
// and waits to be killed. Gone by itself after a minute, should a failed test not kill it.
// Argument: the database URL.
import { openPostgresCore } from '../../src/sandbox/store/postgres/core.js';

const core = await openPostgresCore(process.argv[2]!);
setTimeout(() => process.exit(0), 60_000);
await core.transaction(async () => {
  await core.q.run("INSERT INTO customers (channel, customer_key, business_id) VALUES ('dev', 'killed', 'biz_killed')");
  process.stdout.write('writing\n');
  await new Promise(() => {});
});
