// What the tests of `listen` and `trigger` against a sandbox they should not trust share: servers
// on free loopback ports that keep every request and answer as a test says (a fake sandbox, a
// receiver, an internal service of this machine), the CLI started as a partner runs it, and the
// helper answers a real sandbox gives, to change one field of.
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { repoRoot } from '../../testkit/contract.js';
import { sandboxEnv } from '../../testkit/sandbox-process.js';

export interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface FakeServer {
  url: string;
  seen: Seen[];
  /** How many requests are open now (received, not yet answered or gone). */
  open: () => number;
  close: () => Promise<void>;
}

/** A server on a free loopback port that keeps every request and answers as `answer` says; closed by `closeAll`. */
export async function serve(answer: (request: Seen, response: http.ServerResponse) => void): Promise<FakeServer> {
  const seen: Seen[] = [];
  let open = 0;
  const server = http.createServer((request, response) => {
    open++;
    response.on('close', () => open--);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const entry = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body };
      seen.push(entry);
      answer(entry, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const served = {
    url: `http://127.0.0.1:${port}`,
    seen,
    open: () => open,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  opened.push(served);
  return served;
}

const opened: FakeServer[] = [];

/** Closes every server `serve` opened; for afterEach. */
export async function closeAll(): Promise<void> {
  for (const server of opened.splice(0)) await server.close();
}

export const json = (response: http.ServerResponse, body: unknown, status = 200) =>
  void response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

/** Starts `hsa-fsa-sandbox <args>` from the sources; its output, whole, and its exit code. */
export function cli(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join('src', 'cli.ts'), ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: sandboxEnv(),
  });
  const output = { stdout: '', stderr: '' };
  child.stdout!.on('data', (chunk: Buffer) => (output.stdout += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output.stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output, exited };
}

export const BODY = '{"webhook_delivery_id":"dlv_1","event_type":"dispute.created","data":{"dispute_id":"d-1"}}';
export const SIGNED = {
  'content-type': 'application/json',
  'x-service-signature': 't=1795428000,v0=00',
  'x-sandbox-webhook-delivery': '1',
};

/** A registration's answer: the listener `id`, for `forwardUrl`. */
export const listenerOf = (forwardUrl: string, id = 'wl_fake') => ({
  id,
  forward_url: forwardUrl,
  event_types: ['*'],
  secret: 'whsec_fake',
  created_at: '2026-11-23T10:00:00.000Z',
  expires_at: '2026-11-23T10:01:00.000Z',
});

/** A claimed delivery, with `over` in place of its fields. */
export const deliveryOf = (over: Record<string, unknown> = {}) => ({
  delivery_id: '12',
  claim_id: 'lc_1',
  event_id: '7',
  webhook_delivery_id: 'dlv_1',
  event_type: 'dispute.created',
  object_id: 'd-1',
  attempt: 1,
  request_body: BODY,
  request_headers: SIGNED,
  ...over,
});

/** A report's answer: the attempt recorded, delivered. */
export const outcome = {
  attempt: {
    id: '1',
    event_id: '7',
    webhook_delivery_id: 'dlv_1',
    event_type: 'dispute.created',
    endpoint_id: 'wl_fake',
    url: 'http://localhost:3000/webhooks',
    attempted_at: '2026-11-23T10:00:00.000Z',
    status: 204,
    latency_ms: 1,
    response_excerpt: null,
    error: null,
    delivery_status: 'delivered',
  },
  next_attempt_at: null,
};
