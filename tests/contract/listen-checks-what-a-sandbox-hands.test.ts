// `listen` checks what a sandbox hands before it uses it (src/sandbox/cli/sandbox-answers.ts): the
// sandbox may be another machine's, or anyone in the middle of a plain-HTTP --sandbox. A delivery
// of another shape than the helper document says is skipped with one line on standard error; a
// registration or a claim answer that is no sandbox's ends the run in one line, exit code 1; a
// report's answer that is no record says so in the attempt's line. Never a stack trace, and Ctrl-C
// (or the end of the run) still removes the listener. It forwards no more deliveries than it asked
// for, asks again at a pace whatever the sandbox answers, reads no answer past 16 MiB, and prints
// no enormous line. Run as a partner runs it: a process of the CLI, against a fake sandbox and a receiver.
import { afterEach, describe, expect, it } from 'vitest';
import { cli, closeAll, deliveryOf, json, listenerOf, outcome, serve } from '../support/fake-sandbox.js';
import { until } from '../../testkit/webhook-receiver.js';

afterEach(closeAll);

/** A fake sandbox: the registration answers `registration`, the first claim `claim`, later ones nothing after 200 ms. */
async function sandboxHanding(options: {
  claim: unknown;
  registration?: (forwardUrl: string) => unknown;
  report?: unknown;
}) {
  const receiver = await serve((_, response) => void response.writeHead(204).end());
  let claims = 0;
  const sandbox = await serve((request, response) => {
    const route = `${request.method} ${request.url.split('?')[0]}`;
    if (route === 'POST /sandbox/v1/webhook_listeners') {
      return json(response, (options.registration ?? listenerOf)(`${receiver.url}/webhooks`));
    }
    if (route.endsWith('/deliveries')) {
      if (claims++ > 0) return void setTimeout(() => json(response, { deliveries: [] }), 200);
      return json(response, options.claim);
    }
    if (route.endsWith('/attempts')) return json(response, options.report ?? outcome);
    json(response, listenerOf(`${receiver.url}/webhooks`));
  });
  return { receiver, sandbox, claims: () => claims };
}

const NO_STACK = /^\s+at /m;

describe('listen against a sandbox whose claim is malformed', () => {
  it.each([
    ['request_headers null', { deliveries: [deliveryOf({ request_headers: null })] }],
    ['event_type a number', { deliveries: [deliveryOf({ event_type: 42 })] }],
    ['object_id a number', { deliveries: [deliveryOf({ object_id: 42 })] }],
    ['deliveries a string', { deliveries: 'abc' }],
  ])(
    '%s: no stack trace, and Ctrl-C still removes the listener',
    async (_what, claim) => {
      const { receiver, sandbox, claims } = await sandboxHanding({ claim });
      const listen = cli([
        'listen',
        '--forward-to',
        `${receiver.url}/webhooks`,
        '--sandbox',
        sandbox.url,
        '--key',
        'k',
      ]);
      await until(() => claims() > 1 || listen.child.exitCode !== null, 15_000, 'the second claim, or the end');
      await new Promise((resolve) => setTimeout(resolve, 500));
      listen.child.kill('SIGINT');
      const code = await listen.exited;
      expect(listen.output.stderr).not.toMatch(NO_STACK);
      expect(sandbox.seen.map((r) => r.method)).toContain('DELETE');
      expect(receiver.seen).toEqual([]);
      if (typeof claim.deliveries === 'string') {
        // No list of deliveries: no sandbox's answer, which ends the run.
        expect(code).toBe(1);
        expect(listen.output.stderr).toBe(
          'error: claim deliveries answered 200, not an answer of the sandbox (its ' +
            `deliveries are not a list): is ${sandbox.url} a sandbox (npm start)?\n`,
        );
      } else {
        // The delivery is skipped, in one line, and the claims go on until Ctrl-C.
        expect(code).toBe(0);
        expect(listen.output.stderr).toMatch(
          /^skipped delivery 1 of the sandbox's answer, which is not one: its \w+ is not [^\n]+ \(delivery_id "12"\)\n$/,
        );
      }
    },
    60_000,
  );

  it('forwards the well-formed deliveries of an answer and skips the others, each said once', async () => {
    const deliveries = [
      deliveryOf({ delivery_id: '1', claim_id: 'lc_1' }),
      deliveryOf({ delivery_id: 'x', claim_id: 'lc_2' }),
      'abc',
      deliveryOf({ delivery_id: '3', claim_id: 'lc_3', attempt: 0 }),
      deliveryOf({ delivery_id: '4', claim_id: 'lc_4' }),
      deliveryOf({ delivery_id: '4', claim_id: 'lc_5' }),
    ];
    const { receiver, sandbox } = await sandboxHanding({ claim: { deliveries } });
    const listen = cli(['listen', '--forward-to', `${receiver.url}/webhooks`, '--sandbox', sandbox.url, '--key', 'k']);
    const reports = () => sandbox.seen.filter((r) => r.url.endsWith('/attempts'));
    await until(() => reports().length === 2 || listen.child.exitCode !== null, 15_000, 'the two reports');
    listen.child.kill('SIGINT');
    expect(await listen.exited).toBe(0);
    expect(
      reports()
        .map((r) => JSON.parse(r.body).delivery_id)
        .sort(),
    ).toEqual(['1', '4']);
    expect(listen.output.stderr.split('\n').filter(Boolean)).toEqual([
      'skipped delivery 2 of the sandbox\'s answer, which is not one: its delivery_id is not a delivery id (1 to 15 digits) (delivery_id "x")',
      'skipped delivery 3 of the sandbox\'s answer, which is not one: it is not an object (delivery_id "abc")',
      'skipped delivery 4 of the sandbox\'s answer, which is not one: its attempt is not a whole number from 1 (delivery_id "3")',
      'skipped 1 deliveries the sandbox handed twice, or while they are being forwarded',
    ]);
  }, 60_000);

  it('ends in one line, exit code 1, when the registration answers no listener', async () => {
    const { receiver, sandbox } = await sandboxHanding({
      claim: { deliveries: [] },
      registration: (url) => ({ ...listenerOf(url), id: 42 }),
    });
    const listen = cli(['listen', '--forward-to', `${receiver.url}/webhooks`, '--sandbox', sandbox.url, '--key', 'k']);
    expect(await listen.exited).toBe(1);
    expect(listen.output.stderr).toBe(
      'error: register the listener answered 200, not an answer of the sandbox (its id ' +
        `is not a string): is ${sandbox.url} a sandbox (npm start)?\n`,
    );
  }, 60_000);

  it("says in the attempt's line that a report's answer is no record of it, and goes on", async () => {
    const { receiver, sandbox } = await sandboxHanding({
      claim: { deliveries: [deliveryOf()] },
      report: { attempt: null },
    });
    const listen = cli(['listen', '--forward-to', `${receiver.url}/webhooks`, '--sandbox', sandbox.url, '--key', 'k']);
    await until(
      () => listen.output.stdout.includes('not recorded') || listen.child.exitCode !== null,
      15_000,
      'the line',
    );
    listen.child.kill('SIGINT');
    expect(await listen.exited).toBe(0);
    expect(listen.output.stdout).toMatch(
      /dispute\.created +d-1 +204 +\d+ ms {2}\(not recorded: the sandbox's answer is no record of it: its attempt is not an object\)\n/,
    );
    expect(listen.output.stderr).toBe('');
  }, 60_000);
});

describe('listen against a sandbox that hands more than asked', () => {
  it('a claim answered with 300 deliveries opens at most the limit it asked for at the receiver', async () => {
    let most = 0;
    const receiver = await serve((_, response) => void setTimeout(() => response.writeHead(204).end(), 2000));
    const limits: string[] = [];
    let claims = 0;
    const sandbox = await serve((request, response) => {
      const route = `${request.method} ${request.url.split('?')[0]}`;
      most = Math.max(most, receiver.open());
      if (route === 'POST /sandbox/v1/webhook_listeners') return json(response, listenerOf(`${receiver.url}/webhooks`));
      if (route.endsWith('/deliveries')) {
        limits.push(new URL(request.url, 'http://x').searchParams.get('limit') ?? '');
        if (claims++ > 0) return void setTimeout(() => json(response, { deliveries: [] }), 200);
        const handed = Array.from({ length: 300 }, (_, i) =>
          deliveryOf({ delivery_id: String(i + 1), claim_id: `lc_${i + 1}` }),
        );
        return json(response, { deliveries: handed });
      }
      if (route.endsWith('/attempts')) return json(response, outcome);
      json(response, listenerOf(`${receiver.url}/webhooks`));
    });
    const listen = cli(['listen', '--forward-to', `${receiver.url}/webhooks`, '--sandbox', sandbox.url, '--key', 'k']);
    const timer = setInterval(() => (most = Math.max(most, receiver.open())), 20);
    await until(() => receiver.seen.length >= 8 || listen.child.exitCode !== null, 15_000, 'eight forwarded');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    clearInterval(timer);
    listen.child.kill('SIGINT');
    await listen.exited;
    expect(limits[0]).toBe('8');
    expect(receiver.seen.length).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(8);
    // The first 8, and one line for the rest.
    expect(receiver.seen.slice(0, 8).map((r) => r.url)).toEqual(Array(8).fill('/webhooks'));
    expect(listen.output.stderr).toBe(
      'skipped 292 deliveries beyond the 8 asked for: the sandbox handed more; ' +
        'they come again when their lease ends\n',
    );
  }, 60_000);
});

describe('listen against a sandbox that answers at once, without end, or at length', () => {
  it('a sandbox that answers every claim 404 is registered with again at a pace, not in a tight loop', async () => {
    const sandbox = await serve((request, response) => {
      const route = `${request.method} ${request.url.split('?')[0]}`;
      if (route === 'POST /sandbox/v1/webhook_listeners')
        return json(response, listenerOf('http://127.0.0.1:9/webhooks'));
      json(response, { error: 'NotFound', message: 'gone' }, 404);
    });
    const listen = cli([
      'listen',
      '--forward-to',
      'http://127.0.0.1:9/webhooks',
      '--sandbox',
      sandbox.url,
      '--key',
      'k',
    ]);
    await until(() => listen.output.stdout.includes('Ready!') || listen.child.exitCode !== null, 15_000, 'Ready!');
    await new Promise((resolve) => setTimeout(resolve, 3000));
    listen.child.kill('SIGINT');
    await listen.exited;
    const registrations = sandbox.seen.filter(
      (r) => r.method === 'POST' && r.url === '/sandbox/v1/webhook_listeners',
    ).length;
    expect(registrations).toBeLessThanOrEqual(10);
    // Registered again at once the first time: a listener that expired is taken up without delay.
    expect(registrations).toBeGreaterThanOrEqual(3);
  }, 60_000);

  it('a sandbox that answers every claim with nothing at once is asked about once a second', async () => {
    const sandbox = await serve((request, response) => {
      if (request.method === 'POST') return json(response, listenerOf('http://127.0.0.1:9/webhooks'));
      json(
        response,
        request.url.includes('/deliveries') ? { deliveries: [] } : listenerOf('http://127.0.0.1:9/webhooks'),
      );
    });
    const listen = cli([
      'listen',
      '--forward-to',
      'http://127.0.0.1:9/webhooks',
      '--sandbox',
      sandbox.url,
      '--key',
      'k',
    ]);
    await until(() => listen.output.stdout.includes('Ready!') || listen.child.exitCode !== null, 15_000, 'Ready!');
    await new Promise((resolve) => setTimeout(resolve, 3000));
    listen.child.kill('SIGINT');
    expect(await listen.exited).toBe(0);
    const claims = sandbox.seen.filter((r) => r.url.includes('/deliveries')).length;
    expect(claims).toBeGreaterThanOrEqual(2);
    expect(claims).toBeLessThanOrEqual(6);
  }, 60_000);

  it('reads no answer past 16 MiB: one without end ends listen in one line', async () => {
    const sandbox = await serve((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 'a');
      // Written for as long as the command reads.
      const more = () => {
        while (!response.destroyed && response.write(chunk));
      };
      response.on('drain', more);
      more();
    });
    const listen = cli([
      'listen',
      '--forward-to',
      'http://127.0.0.1:9/webhooks',
      '--sandbox',
      sandbox.url,
      '--key',
      'k',
    ]);
    expect(await listen.exited).toBe(1);
    expect(listen.output.stderr).toBe(
      'error: register the listener answered 200, not an answer of the sandbox (an answer ' +
        `of more than 16 MiB): is ${sandbox.url} a sandbox (npm start)?\n`,
    );
  }, 60_000);

  it("quotes at most 500 characters of a refusal's message, and 100 of its code", async () => {
    const sandbox = await serve((_, response) =>
      json(response, { error: 'E'.repeat(5000), message: 'm'.repeat(100_000) }, 400),
    );
    const listen = cli([
      'listen',
      '--forward-to',
      'http://127.0.0.1:9/webhooks',
      '--sandbox',
      sandbox.url,
      '--key',
      'k',
    ]);
    expect(await listen.exited).toBe(1);
    expect(listen.output.stderr).toBe(
      `error: register the listener answered 400 ${'E'.repeat(100)}…: ${'m'.repeat(500)}…\n`,
    );
  }, 60_000);
});
