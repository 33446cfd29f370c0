// A sandbox process that claims the due deliveries of one endpoint and then never reports them:
// what a sandbox killed mid-delivery leaves behind. It prints what it claimed as one JSON line, and
// waits to be killed. Arguments: the database URL, the endpoint, its owner name, the lease in ms.
import pg from 'pg';
import { deliveriesRepository } from '../../../src/sandbox/store/postgres/deliveries.js';
import { bigintsAsNumbers, poolQueries } from './pool-queries.js';

const [url, endpointId, owner, leaseMs] = process.argv.slice(2) as [string, string, string, string];
const pool = new pg.Pool({ connectionString: url, max: 1, types: bigintsAsNumbers });
const claimed = await deliveriesRepository(poolQueries(pool)).claim(
  endpointId,
  '9999-12-31T23:59:59.999Z',
  10,
  owner,
  Number(leaseMs),
);
process.stdout.write(`${JSON.stringify(claimed)}\n`);
// Sending, until it is killed; gone by itself after a minute, should a failed test not kill it.
setTimeout(() => process.exit(0), 60_000);
