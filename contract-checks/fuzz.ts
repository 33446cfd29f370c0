// npm run fuzz: the negative fuzz of every operation, in process, as many requests as you like.
//   npm run fuzz                                  300 requests per operation, the suite's seed
//   npm run fuzz -- --seed 7 --count 5000         another seed, 5,000 per operation
// Prints the requests and statuses per operation, the coverage of error codes, and every failure
// (a 5xx, or an answer outside the document); exits 1 when there is one. The corpus and the checks
// are the ones `npm test` runs (testkit/fuzz-corpus.ts, testkit/fuzz-run.ts).
import { parseArgs } from 'node:util';
import { coverageTable } from '../testkit/coverage.js';
import { fuzzCountsTable, runFuzz } from '../testkit/fuzz-run.js';

const { values } = parseArgs({ options: { seed: { type: 'string' }, count: { type: 'string' } } });
const seed = values.seed === undefined ? 20261123 : Number(values.seed);
const count = values.count === undefined ? 300 : Number(values.count);
if (!Number.isSafeInteger(seed) || !Number.isSafeInteger(count) || count < 1) {
  console.error('Usage: npm run fuzz -- [--seed <integer>] [--count <requests per operation, at least 1>]');
  process.exit(2);
}

const started = performance.now();
const { perOperation, coverage, failures } = await runFuzz(count, seed);
const total = [...perOperation.values()].reduce((sum, t) => sum + t.requests, 0);
console.log(
  `Fuzz: seed ${seed}, ${count} requests per operation, ${total} in all, ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
);
console.log(fuzzCountsTable(perOperation));
console.log(`\nError codes produced:\n\n${coverageTable(coverage)}\n`);
if (failures.length > 0) {
  console.log(`${failures.length} failures:\n${failures.slice(0, 50).join('\n')}`);
  process.exit(1);
}
console.log('No 5xx, and every answer conforms to the document.');
