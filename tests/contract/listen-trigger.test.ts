// `hsa-fsa-sandbox listen` and `hsa-fsa-sandbox trigger`, run as a partner runs them: processes of
// the CLI against a sandbox process, forwarding to a local receiver that verifies every delivery
// with this package's verifyWebhook. Every webhook event of the contract is triggered and arrives
// signed; a receiver's 500 is shown as a failure and retried; Ctrl-C leaves nothing registered; the
// secret is the same on every run with the same URL; --events filters; mistakes get one line. A
// listen killed and started again takes its listener up, with what was fired in between, once
// each; a channel's data (a sku full of escape sequences) reaches the terminal escaped.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_CLAIM_MS } from '../../src/sandbox/delivery/listeners.js';
import { repoRoot } from '../../testkit/contract.js';
import { freePort } from '../../testkit/processes.js';
import {
  SANDBOX_API_KEY,
  sandboxEnv,
  startSandboxProcess,
  type SandboxProcess,
} from '../../testkit/sandbox-process.js';
import { startReceiver, until, type Receiver } from '../../testkit/webhook-receiver.js';

const dir = mkdtempSync(path.join(tmpdir(), 'listen-trigger-'));
const dbFile = path.join(dir, 'sandbox.db');
let sandbox: SandboxProcess;
const receivers: Receiver[] = [];
const running = new Set<ChildProcess>();

beforeAll(async () => {
  sandbox = await startSandboxProcess({ db: dbFile });
}, 60_000);
afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  for (const receiver of receivers) await receiver.close();
  await sandbox?.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface Cli {
  child: ChildProcess;
  /** Standard output so far, line by line. */
  lines: string[];
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Starts `hsa-fsa-sandbox <args>` from the sources, as `npm run listen` / `npm run trigger` run it. */
function cli(args: string[], env: NodeJS.ProcessEnv = {}): Cli {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join('src', 'cli.ts'), ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...sandboxEnv(), ...env },
  });
  running.add(child);
  const lines: string[] = [];
  let partial = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const text = partial + chunk.toString('utf8');
    const parts = text.split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      if (partial) lines.push(partial);
      resolve(code);
    }),
  );
  return { child, lines, stderr: () => stderr, exited };
}

async function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  const started = cli(args, env);
  const code = await started.exited;
  return { code, stdout: started.lines, stderr: started.stderr() };
}

const target = () => ['--sandbox', sandbox.baseUrl];
const helper = async (route: string, init: { method?: string; body?: unknown } = {}) => {
  const response = await fetch(`${sandbox.baseUrl}${route}`, {
    method: init.method ?? 'GET',
    headers: {
      'x-service-api-key': SANDBOX_API_KEY,
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  return (await response.json()) as any;
};
const listenerIds = async () =>
  ((await helper('/sandbox/v1/webhook_listeners')).listeners as Array<{ id: string }>).map((l) => l.id);

/** A receiver whose secret is set once `listen` has printed it (verifyWebhook reads it at each delivery). */
type ReceiverOptions = NonNullable<Parameters<typeof startReceiver>[0]>;

async function receiverFor(answer?: ReceiverOptions['answer']) {
  const options: ReceiverOptions = { secret: '', ...(answer ? { answer } : {}) };
  const receiver = await startReceiver(options);
  receivers.push(receiver);
  return {
    receiver,
    useSecret: (secret: string) => {
      options.secret = secret;
    },
  };
}

/** Starts `listen`, and resolves once it printed its secret; the receiver then verifies with it. */
async function listenTo(url: string, extra: string[] = [], useSecret: (secret: string) => void = () => {}) {
  const listener = cli(['listen', ...target(), '--forward-to', url, ...extra]);
  const banner = () => {
    const text = listener.lines.join('\n');
    const secret = /^Ready! Your webhook signing secret is (whsec_\S+)/m.exec(text)?.[1];
    const id = /^Forwarding .* \(listener (wl_\w+)\)\. Press Ctrl-C to stop\.$/m.exec(text)?.[1];
    return secret && id ? { secret, id } : undefined;
  };
  await until(() => banner() !== undefined || listener.child.exitCode !== null, 30_000, 'listen to print its secret');
  const printed = banner();
  expect(printed, listener.stderr()).toBeDefined();
  useSecret(printed!.secret);
  // Listening: the listener is registered before the lines are printed.
  return { ...listener, ...printed! };
}

async function interrupt(listener: Cli, signal: NodeJS.Signals = 'SIGINT') {
  listener.child.kill(signal);
  return listener.exited;
}

/** The id a trigger's closing line names: `Fired … for dispute <id>.` */
const firedFor = (stdout: string[]) =>
  /^Fired .* for [\w ]+? (\S+)\.$/.exec(stdout.find((line) => line.startsWith('Fired ')) ?? '')?.[1];

describe('listen and trigger', () => {
  it('forwards every event of the contract that trigger fires, signed and verified, one line per attempt; Ctrl-C removes the listener', async () => {
    const { receiver, useSecret } = await receiverFor();
    const listener = await listenTo(receiver.url, [], useSecret);
    expect(await listenerIds()).toContain(listener.id);

    const list = await run(['trigger', '--list']);
    expect(list.code).toBe(0);
    const names = list.stdout.map((line) => line.split(/\s+/)[0]!).filter((name) => name.includes('.'));
    expect(names).toEqual(
      expect.arrayContaining([
        'payment_session_complete.captured',
        'payment_session_complete.authorized',
        'payment_session_complete.canceled',
        'payment_session_complete.rejected',
        'payment_session_complete.voided',
        'payment_session_complete.expired',
        'payment_token.updated',
        'product_catalog.item.eligibility_updated',
        'dispute.created',
        'dispute.updated',
        'dispute.closed',
        'dispute.evidence_submitted',
      ]),
    );

    // The expiry moves the channel's clock a week on: last, after the holds of the others are settled.
    const ids = new Map<string, string>();
    const fire = async (name: string) => {
      const fired = await run(['trigger', name, ...target()]);
      expect({ name, code: fired.code, stderr: fired.stderr }).toEqual({ name, code: 0, stderr: '' });
      ids.set(name, firedFor(fired.stdout)!);
    };
    await Promise.all(names.filter((name) => !name.endsWith('.expired')).map(fire));
    await fire('payment_session_complete.expired');

    const statusOf = (name: string) => (name.startsWith('payment_session_complete.') ? name.split('.')[1] : undefined);
    const STATUS = {
      captured: 'captured',
      authorized: 'authorized',
      canceled: 'canceled',
      rejected: 'rejected',
      voided: 'authorization_voided',
      expired: 'authorization_expired',
      processing: 'processing',
      ineligible: 'pending',
    } as Record<string, string>;
    const arrived = (name: string) =>
      receiver.accepted.some(({ body }) => {
        const id = ids.get(name);
        if (name.startsWith('payment_session_complete.'))
          return (
            body.event_type === 'payment_session_complete' &&
            body.data.payment_id === id &&
            body.data.status === STATUS[statusOf(name)!]
          );
        if (name === 'payment_token.updated') return body.event_type === name && body.data.payment_token === id;
        if (name === 'product_catalog.item.eligibility_updated')
          return body.event_type === name && body.data.object?.sku === id;
        return body.event_type === name && body.data.dispute_id === id;
      });
    await until(
      () => names.every(arrived),
      30_000,
      `every event (missing: ${names.filter((name) => !arrived(name)).join(', ')})`,
    );
    expect(receiver.rejected).toEqual([]);
    // Each event once: the receiver answered every one 204.
    const deliveryIds = receiver.accepted.map(({ body }) => body.webhook_delivery_id as string);
    expect(new Set(deliveryIds).size).toBe(deliveryIds.length);
    // A line per attempt: time, event type, object id, 204 and its latency.
    await until(
      () => listener.lines.filter((line) => / 204 {2}\d+ ms$/.test(line)).length === receiver.accepted.length,
      10_000,
      'a line per attempt',
    );
    const closed = ids.get('dispute.closed')!;
    expect(listener.lines).toContainEqual(
      expect.stringMatching(
        new RegExp(`^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d {2}dispute\\.closed +${closed} {2}204 {2}\\d+ ms$`),
      ),
    );

    expect(await interrupt(listener)).toBe(0);
    expect(listener.lines.at(-1)).toBe(`Stopped: listener ${listener.id} removed, with its pending deliveries.`);
    expect(await listenerIds()).toEqual([]);
  }, 180_000);

  it("shows a receiver's 500 as a failure, with the retry it gets, and forwards the retry once the sandbox clock reaches it", async () => {
    const { receiver, useSecret } = await receiverFor((n) => (n === 0 ? 'fail' : 'ok'));
    const listener = await listenTo(receiver.url, ['--events', 'payment_session_complete'], useSecret);
    const fired = await run(['trigger', 'payment_session_complete.authorized', ...target()]);
    const session = firedFor(fired.stdout)!;
    const failure = new RegExp(
      `payment_session_complete +${session} {2}500 {2}\\d+ ms {2}FAILED: retry 2 due in [\\d.]+ m?s \\(\\S+ on the sandbox clock\\)$`,
    );
    await until(() => listener.lines.some((line) => failure.test(line)), 20_000, 'the failure line');
    await helper('/sandbox/v1/clock/advance', { method: 'POST', body: { seconds: 60 } });
    await until(() => receiver.accepted.length === 1, 20_000, 'the retry');
    expect(receiver.accepted[0]!.body.data).toMatchObject({ payment_id: session, status: 'authorized' });
    await until(
      () =>
        listener.lines.some((line) => new RegExp(`payment_session_complete +${session} {2}204 {2}\\d+ ms$`).test(line)),
      10_000,
      "the retry's line",
    );
    // The sandbox's log has both attempts of the listener, as it has any endpoint's.
    const log = (await helper('/sandbox/v1/webhook_deliveries?limit=1000')).attempts.filter(
      (a: { endpoint_id: string }) => a.endpoint_id === listener.id,
    );
    expect(log.map((a: { status: number; url: string }) => [a.status, a.url])).toEqual([
      [500, receiver.url],
      [204, receiver.url],
    ]);
    expect(await interrupt(listener, 'SIGTERM')).toBe(0);
    expect(await listenerIds()).toEqual([]);
  }, 120_000);

  it('keeps forwarding to one receiver while another hangs and a third answers 200, which is a failure', async () => {
    const hung = await receiverFor(() => 'hang');
    const good = await receiverFor();
    const wrong = await receiverFor(() => 'ok-200');
    const listeners = [
      await listenTo(hung.receiver.url, [], hung.useSecret),
      await listenTo(good.receiver.url, [], good.useSecret),
      await listenTo(wrong.receiver.url, [], wrong.useSecret),
    ];
    const fired = await run(['trigger', 'dispute.created', ...target()]);
    expect(fired.code).toBe(0);
    await until(() => good.receiver.accepted.length === 3, 20_000, 'the three events at the good receiver');
    expect(good.receiver.accepted.map(({ body }) => body.event_type).sort()).toEqual([
      'dispute.created',
      'payment_session_complete',
      'payment_session_complete',
    ]);
    // The hung receiver holds its requests open; the API and the other listeners go on.
    expect(hung.receiver.arrived.length).toBeGreaterThan(0);
    expect(hung.receiver.accepted).toEqual([]);
    await until(
      () =>
        listeners[2]!.lines.some((line) =>
          / 200 {2}\d+ ms {2}FAILED \(only 204 delivers\): retry 2 due in /.test(line),
        ),
      20_000,
      'the 200 shown as a failure',
    );
    expect((await fetch(`${sandbox.baseUrl}/health`)).status).toBe(200);
    for (const listener of listeners) expect(await interrupt(listener)).toBe(0);
    expect(await listenerIds()).toEqual([]);
  }, 120_000);

  it('prints the same secret on every run with the same key and URL, and another for another URL', async () => {
    const url = `http://127.0.0.1:${await freePort()}/webhooks`;
    const first = await listenTo(url);
    expect(await interrupt(first)).toBe(0);
    const second = await listenTo(url);
    expect(await interrupt(second)).toBe(0);
    const other = await listenTo(`${url}/other`);
    expect(await interrupt(other)).toBe(0);
    expect(second.secret).toBe(first.secret);
    expect(second.id).not.toBe(first.id);
    expect(other.secret).not.toBe(first.secret);
  }, 120_000);

  it('forwards only the events --events names', async () => {
    const { receiver, useSecret } = await receiverFor();
    const listener = await listenTo(receiver.url, ['--events', 'dispute.created'], useSecret);
    const fired = await run(['trigger', 'dispute.created', ...target()]);
    expect(fired.code).toBe(0);
    await until(() => receiver.accepted.length === 1, 20_000, 'the dispute');
    expect(receiver.accepted[0]!.body).toMatchObject({
      event_type: 'dispute.created',
      data: { dispute_id: firedFor(fired.stdout) },
    });
    // The payment's two events, queued before it, made no delivery for this listener.
    const db = new Database(dbFile, { readonly: true });
    try {
      const types = db
        .prepare('SELECT o.event_type FROM deliveries d JOIN outbox o ON o.id = d.outbox_id WHERE d.endpoint_id = ?')
        .pluck()
        .all(listener.id);
      expect(types).toEqual(['dispute.created']);
    } finally {
      db.close();
    }
    expect(await interrupt(listener)).toBe(0);
  }, 120_000);

  it("prints a channel's data escaped: a sku of escape sequences reaches no terminal raw", async () => {
    const { receiver, useSecret } = await receiverFor();
    const listener = await listenTo(receiver.url, ['--events', 'product_catalog.item.eligibility_updated'], useSecret);
    const sku = `ESC-\u001b]0;TITLE\u0007\u001b[2J\u001b[31mRED\u001b[0m-${Date.now()}`;
    const created = await fetch(`${sandbox.baseUrl}/api/v1/product_catalog/items/create`, {
      method: 'POST',
      headers: { 'x-service-api-key': SANDBOX_API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ sku, name: 'Escapes' }),
    });
    expect(created.status).toBe(200);
    const review = { method: 'POST', body: { sku, eligibility: 'eligible' } };
    const reviewed = await helper('/sandbox/v1/catalog/items/review', review);
    expect(reviewed.sku).toBe(sku);
    await until(() => receiver.accepted.length === 1, 20_000, 'the eligibility update');
    expect(receiver.accepted[0]!.body.data.object.sku).toBe(sku);
    const shown = sku.replace(
      '\u001b]0;TITLE\u0007\u001b[2J\u001b[31mRED\u001b[0m',
      '\\x1b]0;TITLE\\x07\\x1b[2J\\x1b[31mRED\\x1b[0m',
    );
    await until(() => listener.lines.some((line) => line.includes(shown)), 10_000, 'the line of the attempt');
    expect(await interrupt(listener)).toBe(0);
    // No control character at all, in any line or on standard error (lines are split on \n).
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters no line may carry raw
    const raw = /[\u0000-\u001f\u007f-\u009f]/;
    expect(listener.lines.filter((line) => raw.test(line))).toEqual([]);
    expect(raw.test(listener.stderr())).toBe(false);
  }, 120_000);

  it('takes up its listener when killed and started again within 60 s: what was fired between comes once', async () => {
    const { receiver, useSecret } = await receiverFor();
    const first = await listenTo(receiver.url, ['--events', 'dispute.created'], useSecret);
    // Killed: no Ctrl-C, so the listener stays, and events are fired while nobody asks.
    await interrupt(first, 'SIGKILL');
    const fire = () => run(['trigger', 'dispute.created', ...target()]);
    const fired = [await fire(), await fire()];
    const disputes = fired.map((result) => firedFor(result.stdout)!);
    expect(receiver.arrived).toEqual([]);
    // Killed before its first claim reached the sandbox, a listener counts as in use until
    // FIRST_CLAIM_MS has passed since it registered: the restart comes after that, as a person's does.
    await new Promise((resolve) => setTimeout(resolve, FIRST_CLAIM_MS));
    const second = await listenTo(receiver.url, ['--events', 'dispute.created'], useSecret);
    expect(second.id).toBe(first.id);
    expect(second.secret).toBe(first.secret);
    await until(() => receiver.accepted.length === 2, 20_000, 'the two disputes');
    expect(receiver.accepted.map(({ body }) => body.data.dispute_id).sort()).toEqual([...disputes].sort());
    // Once each: nothing more comes, and the log has one attempt of each, both delivered.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(receiver.arrived).toHaveLength(2);
    type Attempt = { endpoint_id: string; status: number };
    const attempts = (await helper('/sandbox/v1/webhook_deliveries?limit=1000')).attempts as Attempt[];
    const log = attempts.filter((a) => a.endpoint_id === first.id);
    expect(log.map((a) => a.status)).toEqual([204, 204]);
    expect(await interrupt(second)).toBe(0);
    expect(await listenerIds()).toEqual([]);
  }, 120_000);

  it('says what is wrong in one line, with no stack trace: 2 for a mistake in the command, 1 when the sandbox cannot be used', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const before = await listenerIds();
    const cases: Array<[string[], number, RegExp]> = [
      [
        ['trigger', 'payment_session.created'],
        2,
        /^error: unknown event "payment_session\.created"; the known ones: payment_session_complete\.processing, .*dispute\.closed/,
      ],
      [['trigger'], 2, /^error: trigger takes one event name; the known ones: /],
      [
        [
          'listen',
          '--forward-to',
          'http://localhost:3000/webhooks',
          '--events',
          'dispute.created,payment_intent.succeeded',
        ],
        2,
        /^error: unknown event type "payment_intent\.succeeded" in --events; the known ones: \*, dispute\.\*, payment_session_complete, /,
      ],
      [['listen'], 2, /^error: listen needs --forward-to URL/],
      [['listen', '--forward-to', 'ftp://localhost/webhooks'], 2, /^error: --forward-to must be an http or https URL/],
      [['listen', '--forward-to', 'http://localhost:3000/webhooks', '--wait'], 2, /^error: Unknown option '--wait'$/],
      [
        ['listen', '--forward-to', 'http://localhost:3000/webhooks', '--sandbox', 'localhost:4010'],
        2,
        /^error: --sandbox must be the sandbox's http\(s\) address/,
      ],
      [
        ['listen', '--forward-to', 'http://localhost:3000/webhooks', '--sandbox', closed],
        1,
        /^error: the sandbox at http:\/\/127\.0\.0\.1:\d+ is not reachable \(ECONNREFUSED\)/,
      ],
      [
        ['trigger', 'dispute.created', '--sandbox', closed],
        1,
        /^error: the sandbox at http:\/\/127\.0\.0\.1:\d+ is not reachable/,
      ],
      [
        ['listen', '--forward-to', 'http://localhost:3000/webhooks', ...target(), '--key', 'not-a-key'],
        1,
        /^error: the sandbox at .* refused the key "not-a-key" \(401 Unauthorized\)/,
      ],
      [
        ['trigger', 'dispute.created', ...target(), '--key', 'not-a-key'],
        1,
        /refused the key "not-a-key" \(401 Unauthorized\)/,
      ],
    ];
    const results = await Promise.all(cases.map(([args]) => run(args)));
    results.forEach((result, i) => {
      const [args, code, message] = cases[i]!;
      const lines = result.stderr.split('\n').filter(Boolean);
      expect({ args, code: result.code, lines: lines.length }).toEqual({ args, code, lines: 1 });
      expect(lines[0]).toMatch(message);
    });
    // The same through the environment: SANDBOX_URL and SANDBOX_KEY.
    const fromEnv = await run(['trigger', 'dispute.created'], {
      SANDBOX_URL: sandbox.baseUrl,
      SANDBOX_KEY: 'not-a-key',
    });
    expect([fromEnv.code, fromEnv.stderr]).toEqual([
      1,
      expect.stringContaining(`the sandbox at ${sandbox.baseUrl} refused the key "not-a-key"`),
    ]);
    // None of them registered a listener.
    expect(await listenerIds()).toEqual(before);
  }, 120_000);
});
