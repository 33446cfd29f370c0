// `listen` trusts only its own flags. The sandbox it asks may be another machine's, or anyone in the
// middle of a plain-HTTP --sandbox: whatever URL its registration answer names, the command POSTs
// only to its own --forward-to; whatever headers a claim lists, the receiver gets only those it
// needs; the report carries only that receiver's answer. A --sandbox that is neither https nor this
// machine gets a warning, once, that the key travels in clear text. Run as a partner runs it: a
// process of the CLI, against a fake sandbox, a receiver and an internal service of this machine.
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/contract.js';
import { sandboxEnv } from '../support/sandbox-process.js';
import { until } from '../support/webhook-receiver.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface Server {
  url: string;
  seen: Seen[];
  close: () => Promise<void>;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** A server on a free loopback port that keeps every request and answers as `answer` says. */
async function serve(answer: (request: Seen, response: http.ServerResponse) => void): Promise<Server> {
  const seen: Seen[] = [];
  const server = http.createServer((request, response) => {
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
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  servers.push(served);
  return served;
}

const json = (response: http.ServerResponse, body: unknown) =>
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
const text = (status: number, body: string) => (_: Seen, response: http.ServerResponse) =>
  void response.writeHead(status, { 'content-type': 'text/plain' }).end(body);

/** Starts `hsa-fsa-sandbox <args>` from the sources; its output, whole, and its exit. */
function cli(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join('src', 'cli.ts'), ...args], {
    cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: sandboxEnv(),
  });
  const output = { stdout: '', stderr: '' };
  child.stdout!.on('data', (chunk: Buffer) => (output.stdout += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output.stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output, exited };
}

const BODY = '{"webhook_delivery_id":"dlv_1","event_type":"dispute.created","data":{"dispute_id":"d-1"}}';
const SIGNED = {
  'content-type': 'application/json', 'x-service-signature': 't=1795428000,v0=00', 'x-sandbox-webhook-delivery': '1',
};

describe('listen against a sandbox it should not trust', () => {
  it('POSTs only to --forward-to, with only the headers a receiver needs, and reports only its answer', async () => {
    const internal = await serve(text(200, 'internal admin answer'));
    const receiver = await serve(text(202, 'receiver answer'));
    let claims = 0;
    const listener = {
      id: 'wl_fake', forward_url: `${internal.url}/internal/admin`, event_types: ['*'], secret: 'whsec_fake',
      created_at: '2026-11-23T10:00:00.000Z', expires_at: '2026-11-23T10:01:00.000Z',
    };
    const injected = {
      authorization: 'Bearer injected', cookie: 'admin=1', 'x-internal-token': 'injected', 'user-agent': 'injected',
    };
    const delivery = {
      delivery_id: '12', claim_id: 'lc_1', event_id: '7', webhook_delivery_id: 'dlv_1', event_type: 'dispute.created',
      object_id: 'd-1', attempt: 1, request_body: BODY, request_headers: { ...SIGNED, ...injected },
    };
    const outcome = {
      attempt: {
        id: '1', event_id: '7', webhook_delivery_id: 'dlv_1', event_type: 'dispute.created', endpoint_id: 'wl_fake',
        url: listener.forward_url, attempted_at: '2026-11-23T10:00:00.000Z', status: 202, latency_ms: 1,
        response_excerpt: null, error: null, delivery_status: 'delivered',
      },
      next_attempt_at: null,
    };
    const sandbox = await serve((request, response) => {
      const route = `${request.method} ${request.url.split('?')[0]}`;
      if (route === 'POST /sandbox/v1/webhook_listeners') return json(response, listener);
      if (route === 'GET /sandbox/v1/webhook_listeners/wl_fake/deliveries') {
        if (claims++ > 0) return void setTimeout(() => json(response, { deliveries: [] }), 200);
        return json(response, { deliveries: [delivery] });
      }
      if (route === 'POST /sandbox/v1/webhook_listeners/wl_fake/attempts') return json(response, outcome);
      if (route === 'DELETE /sandbox/v1/webhook_listeners/wl_fake') return json(response, listener);
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"NotFound","message":"no"}');
    });

    const forwardTo = `${receiver.url}/webhooks`;
    const listen = cli(['listen', '--forward-to', forwardTo, '--sandbox', sandbox.url, '--key', 'k']);
    const reports = () => sandbox.seen.filter((request) => request.url.endsWith('/attempts'));
    await until(() => reports().length === 1 || listen.child.exitCode !== null, 30_000, 'the report');
    listen.child.kill('SIGINT');
    expect(await listen.exited).toBe(0);

    expect(internal.seen).toEqual([]);
    expect(receiver.seen).toHaveLength(1);
    const [forwarded] = receiver.seen;
    expect(forwarded).toMatchObject({ method: 'POST', url: '/webhooks', body: BODY });
    expect(forwarded!.headers).toMatchObject({ ...SIGNED, 'user-agent': 'hsa-fsa-sandbox-webhooks' });
    for (const name of ['authorization', 'cookie', 'x-internal-token']) {
      expect(forwarded!.headers[name], name).toBeUndefined();
    }

    expect(reports()).toHaveLength(1);
    expect(JSON.parse(reports()[0]!.body)).toEqual({
      delivery_id: '12', claim_id: 'lc_1', status: 202, latency_ms: expect.any(Number), error: null,
      response_excerpt: { text: 'receiver answer', truncated: false, body_bytes: 15 },
    });
    // It says where it forwards, and that the sandbox named another URL.
    expect(listen.output.stdout).toContain(`to ${forwardTo} (listener wl_fake)`);
    expect(listen.output.stdout).not.toContain('/internal/admin');
    expect(listen.output.stderr).toBe(`warning: the sandbox registered the listener for ${listener.forward_url}; `
      + `forwarding to --forward-to ${forwardTo} all the same.\n`);
  }, 60_000);

  it('warns once, on stderr, that the key travels in clear text to a plain-http sandbox elsewhere', async () => {
    const far = 'http://sandbox.invalid:4010';
    const warning = `warning: the sandbox at ${far} is reached over plain HTTP on another machine: `
      + 'the API key travels in clear text, and anyone on the network between can read it and change the answers. '
      + 'Use https, or a tunnel to an address of this machine.';
    const commands = [
      ['listen', '--forward-to', 'http://localhost:3000/webhooks', '--sandbox', far],
      ['trigger', 'dispute.created', '--sandbox', far],
    ];
    for (const args of commands) {
      const run = cli(args);
      expect(await run.exited).toBe(1);
      const lines = run.output.stderr.split('\n').filter(Boolean);
      expect(lines).toHaveLength(2);
      expect(lines[0]).toBe(warning);
      expect(lines[1]).toMatch(/^error: the sandbox at http:\/\/sandbox\.invalid:4010 is not reachable/);
    }
    // None for a sandbox of this machine.
    const near = cli(['trigger', 'dispute.created', '--sandbox', 'http://127.0.0.1:9']);
    expect(await near.exited).toBe(1);
    expect(near.output.stderr).not.toContain('warning');
  }, 60_000);
});
