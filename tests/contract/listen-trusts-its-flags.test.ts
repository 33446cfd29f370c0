// `listen` trusts only its own flags. The sandbox it asks may be another machine's, or anyone in the
// middle of a plain-HTTP --sandbox: whatever URL its registration answer names, the command POSTs
// only to its own --forward-to; whatever headers a claim lists, the receiver gets only those it
// needs; the report carries only that receiver's answer. A --sandbox that is neither https nor this
// machine gets a warning, once, that the key travels in clear text. A redirect of the sandbox is
// never followed (fetch would take the key, the method and the body where it points): it ends
// `listen` and `trigger` with one line naming the status and the Location. Run as a partner runs
// it: a process of the CLI, against a fake sandbox, a receiver and an internal service of this machine.
import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BODY,
  cli,
  closeAll,
  deliveryOf,
  json,
  listenerOf,
  outcome,
  serve,
  SIGNED,
  type Seen,
} from '../support/fake-sandbox.js';
import { until } from '../../testkit/webhook-receiver.js';

afterEach(closeAll);

const text = (status: number, body: string) => (_: Seen, response: http.ServerResponse) =>
  void response.writeHead(status, { 'content-type': 'text/plain' }).end(body);

describe('listen against a sandbox it should not trust', () => {
  it('POSTs only to --forward-to, with only the headers a receiver needs, and reports only its answer', async () => {
    const internal = await serve(text(200, 'internal admin answer'));
    const receiver = await serve(text(202, 'receiver answer'));
    let claims = 0;
    const listener = {
      id: 'wl_fake',
      forward_url: `${internal.url}/internal/admin`,
      event_types: ['*'],
      secret: 'whsec_fake',
      created_at: '2026-11-23T10:00:00.000Z',
      expires_at: '2026-11-23T10:01:00.000Z',
    };
    const injected = {
      authorization: 'Bearer injected',
      cookie: 'admin=1',
      'x-internal-token': 'injected',
      'user-agent': 'injected',
    };
    const delivery = {
      delivery_id: '12',
      claim_id: 'lc_1',
      event_id: '7',
      webhook_delivery_id: 'dlv_1',
      event_type: 'dispute.created',
      object_id: 'd-1',
      attempt: 1,
      request_body: BODY,
      request_headers: { ...SIGNED, ...injected },
    };
    const outcome = {
      attempt: {
        id: '1',
        event_id: '7',
        webhook_delivery_id: 'dlv_1',
        event_type: 'dispute.created',
        endpoint_id: 'wl_fake',
        url: listener.forward_url,
        attempted_at: '2026-11-23T10:00:00.000Z',
        status: 202,
        latency_ms: 1,
        response_excerpt: null,
        error: null,
        delivery_status: 'delivered',
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
      delivery_id: '12',
      claim_id: 'lc_1',
      status: 202,
      latency_ms: expect.any(Number),
      error: null,
      response_excerpt: { text: 'receiver answer', truncated: false, body_bytes: 15 },
    });
    // It says where it forwards, and that the sandbox named another URL.
    expect(listen.output.stdout).toContain(`to ${forwardTo} (listener wl_fake)`);
    expect(listen.output.stdout).not.toContain('/internal/admin');
    expect(listen.output.stderr).toBe(
      `warning: the sandbox registered the listener for ${listener.forward_url}; ` +
        `forwarding to --forward-to ${forwardTo} all the same.\n`,
    );
  }, 60_000);

  it('warns once, on stderr, that the key travels in clear text to a plain-http sandbox elsewhere', async () => {
    const far = 'http://sandbox.invalid:4010';
    const warning =
      `warning: the sandbox at ${far} is reached over plain HTTP on another machine: ` +
      'the API key travels in clear text, and anyone on the network between can read it and change the answers. ' +
      'Use https, or a tunnel to an address of this machine.';
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

describe('listen and trigger follow no redirect of the sandbox', () => {
  it.each([
    ['the registration', 'POST /sandbox/v1/webhook_listeners'],
    ['a claim', 'GET /sandbox/v1/webhook_listeners/wl_fake/deliveries'],
    ['a report', 'POST /sandbox/v1/webhook_listeners/wl_fake/attempts'],
  ])(
    'a 307 answering %s sends nothing, and no key, to the URL it names: listen ends in one line',
    async (_what, redirected) => {
      const internal = await serve((_, response) => json(response, listenerOf('http://x/', 'wl_internal')));
      const receiver = await serve((_, response) => void response.writeHead(204).end());
      let claims = 0;
      const sandbox = await serve((request, response) => {
        const route = `${request.method} ${request.url.split('?')[0]}`;
        if (route === redirected)
          return void response.writeHead(307, { location: `${internal.url}/internal/admin` }).end();
        if (route === 'POST /sandbox/v1/webhook_listeners')
          return json(response, listenerOf(`${receiver.url}/webhooks`));
        if (route.endsWith('/deliveries')) {
          if (claims++ > 0) return void setTimeout(() => json(response, { deliveries: [] }), 200);
          return json(response, { deliveries: [deliveryOf()] });
        }
        if (route.endsWith('/attempts')) return json(response, outcome);
        json(response, listenerOf(`${receiver.url}/webhooks`));
      });
      const listen = cli([
        'listen',
        '--forward-to',
        `${receiver.url}/webhooks`,
        '--sandbox',
        sandbox.url,
        '--key',
        'k',
      ]);
      const done = () =>
        internal.seen.length > 0 ||
        listen.child.exitCode !== null ||
        sandbox.seen.some((r) => r.url.endsWith('/attempts'));
      await until(done, 20_000, 'the redirect');
      await new Promise((resolve) => setTimeout(resolve, 500));
      listen.child.kill('SIGINT');
      const code = await listen.exited;
      expect(sandbox.seen.length, listen.output.stderr).toBeGreaterThan(0);
      expect(internal.seen.map((r) => `${r.method} ${r.url} key=${String(r.headers['x-service-api-key'])}`)).toEqual(
        [],
      );
      // Ended by the redirect, in one line, the listener removed when it had one.
      expect(code).toBe(1);
      const what = redirected.endsWith('listeners')
        ? 'register the listener'
        : redirected.endsWith('deliveries')
          ? 'claim deliveries'
          : 'report the attempt';
      expect(listen.output.stderr.split('\n').filter(Boolean).at(-1)).toBe(
        `error: ${what} answered 307, a redirect ` +
          `(Location ${internal.url}/internal/admin), which listen and trigger never follow: give the sandbox's own ` +
          'address with --sandbox (https://… if it redirects from http)',
      );
      const removed = sandbox.seen.some((r) => r.method === 'DELETE');
      expect(removed).toBe(redirected !== 'POST /sandbox/v1/webhook_listeners');
    },
    60_000,
  );

  it('trigger: a 307 answering create_payment_session sends nothing, and no key, to the URL it names', async () => {
    const internal = await serve((_, response) => json(response, { id: 'from-internal' }));
    const sandbox = await serve((request, response) => {
      if (request.url.startsWith('/payments/')) {
        return void response.writeHead(307, { location: `${internal.url}/internal/admin` }).end();
      }
      json(response, { error: 'NotFound', message: 'no' }, 404);
    });
    const run = cli(['trigger', 'dispute.created', '--sandbox', sandbox.url, '--key', 'k']);
    const code = await run.exited;
    expect(sandbox.seen.length, run.output.stderr).toBeGreaterThan(0);
    expect(internal.seen.map((r) => `${r.method} ${r.url} key=${String(r.headers['x-service-api-key'])}`)).toEqual([]);
    expect(code).toBe(1);
    expect(run.output.stderr).toBe(
      `error: create payment session answered 307, a redirect (Location ${internal.url}` +
        "/internal/admin), which listen and trigger never follow: give the sandbox's own address with --sandbox " +
        '(https://… if it redirects from http)\n',
    );
  }, 60_000);

  it('cuts a long Location, in its one line', async () => {
    const location = `http://x/\u001b]0;TITLE\u0007${'a'.repeat(500)}`;
    const sandbox = await serve((_, response) => void response.writeHead(302, { location: encodeURI(location) }).end());
    const run = cli(['trigger', 'dispute.created', '--sandbox', sandbox.url, '--key', 'k']);
    expect(await run.exited).toBe(1);
    const line = run.output.stderr.trimEnd();
    expect(line).not.toContain('\n');
    expect(line).toContain('answered 302, a redirect (Location http://x/%1B%5D0;TITLE%07aaa');
    expect(line.length).toBeLessThan(500);
  }, 60_000);

  it('says so when a 3xx names no Location', async () => {
    const sandbox = await serve((_, response) => void response.writeHead(303).end());
    const run = cli(['trigger', 'dispute.created', '--sandbox', sandbox.url, '--key', 'k']);
    expect(await run.exited).toBe(1);
    expect(run.output.stderr).toMatch(/^error: create payment session answered 303, a redirect \(no Location\), /);
  }, 60_000);
});
