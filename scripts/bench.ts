// npm run bench: every benchmark of the project, each against its anchor in the same run.
import { benchClient } from './bench/client.js';
import { benchDelivery, deliveryTable } from './bench/delivery.js';
import { benchListScale, LIST_SIZES, listScaleTable } from './bench/list-scale.js';
import { benchSandbox, sandboxTable } from './bench/sandbox.js';

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

console.log('Client: per-call overhead against a raw fetch (same local server, sequential, median of rounds)');
const client = await benchClient();
console.log(`  raw fetch           ${client.rawFetchUsPerCall.toFixed(1)} µs/call`);
console.log(`  createServiceClient ${client.clientUsPerCall.toFixed(1)} µs/call`);
console.log(`  overhead            ${client.overheadUsPerCall.toFixed(1)} µs/call (client/raw = ${client.ratio.toFixed(2)}x)`);
console.log('Bundle size (esbuild, ESM, minified; openapi-fetch included):');
for (const size of client.sizes) {
  console.log(`  ${size.entry.padEnd(24)} ${kib(size.minifiedBytes)} minified, ${kib(size.gzippedBytes)} gzipped`);
}

const sandbox = await benchSandbox();
console.log('');
console.log(`Sandbox: autocannon, ${sandbox.connections} connections on 127.0.0.1, one run of ${sandbox.seconds} s per case and server`);
console.log('  (the sandbox on a SQLite file; anchors: the Prism mock -v error, and bare fastify answering the same JSON)');
console.log(sandboxTable(sandbox));

const listRuns = await benchListScale();
console.log('');
console.log(`Sandbox list against table size: autocannon, 50 connections, the sandbox on a SQLite file seeded with ${LIST_SIZES.join(' and ')} sessions and as many payment tokens`);
console.log(listScaleTable(listRuns));

const delivery = await benchDelivery();
console.log('');
console.log('Webhook delivery: the sandbox process with --webhook-url, a signed receiver verifying every delivery');
console.log(deliveryTable(delivery));
