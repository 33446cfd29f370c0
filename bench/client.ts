// Client benchmark: bundle size of the client (with openapi-fetch) and its per-call overhead
// against a raw fetch to the same local server, in one run. The calls are timed in a process of
// their own (this file, run with CHILD_FLAG), as in a partner's server: in the bench's process,
// whose heap the loads before had grown, the same calls read 25 % of overhead, against 0 to 6 %
// alone.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';
import { createServiceClient } from '../src/client/index.js';

const root = path.resolve(import.meta.dirname, '..');

export interface SizeReport {
  entry: string;
  minifiedBytes: number;
  gzippedBytes: number;
}

async function bundleSize(entry: string): Promise<SizeReport> {
  const result = await build({
    entryPoints: [path.join(root, entry)],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.contents;
  return { entry, minifiedBytes: code.byteLength, gzippedBytes: gzipSync(code, { level: 9 }).byteLength };
}

const SESSION = '3f1c2a9e-8b7d-4c55-9e21-6a0d4b7c9f10';
const BODY = JSON.stringify({ status: 'captured', status_summary: 'Captured', capture_amount: 7799 });

async function timeCalls(call: () => Promise<unknown>, count: number): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) await call();
  return Number(process.hrtime.bigint() - start) / 1000 / count; // µs per call
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const CHILD_FLAG = '--time-calls';

/** Times the calls in a fresh process and returns its figures. */
function timeCallsAlone(rounds: number, callsPerRound: number): { rawUs: number; clientUs: number } {
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', import.meta.filename, CHILD_FLAG, String(rounds), String(callsPerRound)],
    { cwd: root, encoding: 'utf8' },
  );
  if (child.status !== 0) throw new Error(`The client benchmark failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { rawUs: number; clientUs: number };
}

export async function benchClient({ rounds = 7, callsPerRound = 1000 } = {}) {
  const { rawUs, clientUs } = timeCallsAlone(rounds, callsPerRound);
  return {
    rawFetchUsPerCall: rawUs,
    clientUsPerCall: clientUs,
    overheadUsPerCall: clientUs - rawUs,
    ratio: clientUs / rawUs,
    sizes: [
      await bundleSize('src/client/index.ts'),
      await bundleSize('src/webhooks/index.ts'),
      await bundleSize('src/index.ts'),
    ],
  };
}

async function timeCallsHere(rounds: number, callsPerRound: number): Promise<{ rawUs: number; clientUs: number }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(BODY);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const url = `${baseUrl}/payments/v1/payment_session/${SESSION}`;

  const raw = async () => (await fetch(url, { headers: { 'x-service-api-key': 'k' } })).json();
  const client = createServiceClient({ environment: baseUrl, apiKey: 'k' });
  const typed = () =>
    client.GET('/payments/v1/payment_session/{business_id}', { params: { path: { business_id: SESSION } } });

  await timeCalls(raw, 300);
  await timeCalls(typed, 300);
  const rawTimes: number[] = [];
  const clientTimes: number[] = [];
  for (let round = 0; round < rounds; round++) {
    // Alternating rounds keep drift (GC, CPU frequency) from favouring one side.
    rawTimes.push(await timeCalls(raw, callsPerRound));
    clientTimes.push(await timeCalls(typed, callsPerRound));
  }
  server.close();
  return { rawUs: median(rawTimes), clientUs: median(clientTimes) };
}

if (process.argv[2] === CHILD_FLAG) {
  console.log(JSON.stringify(await timeCallsHere(Number(process.argv[3]), Number(process.argv[4]))));
}
