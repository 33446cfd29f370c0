// PostgreSQL stopped for a few seconds under three sandbox processes: meanwhile every request that
// needs the database answers 503 ServiceUnavailable in the error shape, with Retry-After, and none
// hangs past the bound openapi/sandbox.yaml states; /health, the process's liveness, stays 200, and
// /ready, whether to send it requests, answers 503;
// once the server is back, the same sandboxes serve again, without a restart. So with a server
// that stops answering (frozen with SIGSTOP), and a write lock another client keeps.
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WRITE_LOCK_KEY } from '../../src/sandbox/store/postgres/transactions.js';
import { freshDatabase, startEmbeddedPostgres, type TestPostgres } from '../../testkit/postgres.js';
import { type SandboxGroup, startSandboxProcesses } from '../../testkit/sandbox-processes.js';
import { sessionRequest } from '../../testkit/sandbox.js';
import { CREATE, call, createSession, sessionPath } from './sandboxes-support.js';

/** The longest a request may wait for a database that cannot serve (sandbox.yaml), and a margin. */
const BOUND_MS = 13_000;
const HANG_MS = BOUND_MS + 3_000;

let server: TestPostgres;
let group: SandboxGroup;
let url: string;
beforeAll(async () => {
  server = await startEmbeddedPostgres();
  url = await freshDatabase(server.url, 'outage');
  group = await startSandboxProcesses(3, url, { timeoutMs: 60_000 });
});
afterAll(async () => {
  await group?.stop();
  await server?.stop();
});

interface Seen {
  what: string;
  status: number;
  retryAfter: string | null;
  body: unknown;
  ms: number;
}

/** One request of each kind through sandbox `i`, each given HANG_MS before it counts as a hang. */
async function round(i: number, id: string): Promise<Seen[]> {
  const sandbox = group.at(i);
  const kinds: Array<[string, string, string, unknown?]> = [
    ['retrieve', 'GET', sessionPath(id)],
    ['list', 'GET', '/payments/v1/payment_sessions?limit=5'],
    ['create', 'POST', CREATE, sessionRequest({ idempotency_key: `outage-${i}` })],
    ['clock', 'GET', '/sandbox/v1/clock'],
    ['checkout page', 'GET', `/checkout/${id}`],
    ['health', 'GET', '/health'],
    ['ready', 'GET', '/ready'],
  ];
  return Promise.all(
    kinds.map(async ([what, method, path, body]) => {
      const started = performance.now();
      const response = await fetch(`${sandbox.baseUrl}${path}`, {
        method,
        headers: { 'x-service-api-key': 'sandbox-dev-key', 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(HANG_MS),
      });
      const text = await response.text();
      const json = (response.headers.get('content-type') ?? '').includes('json');
      return {
        what,
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        body: json ? JSON.parse(text) : text,
        ms: performance.now() - started,
      };
    }),
  );
}

describe('PostgreSQL stopped for a few seconds', () => {
  it('every request meanwhile answers 503 with Retry-After or is served, never 500, and the same sandboxes serve again', async () => {
    const id = await createSession(group.at(0));
    const seen: Seen[] = [];
    let down = true;
    const restarting = server.restart!(4_000).then(() => {
      down = false;
    });
    // Rounds through each sandbox in turn while the server is down and restarting.
    for (let i = 0; down; i++) {
      seen.push(...(await round(i, id)));
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await restarting;
    // A figure for the report, not an assertion: how long the answers took while the server was down.
    const slowest = Math.max(...seen.filter((s) => s.status === 503).map((s) => s.ms));
    console.log(
      `${seen.length} answers during the outage, ${seen.filter((s) => s.status === 503).length} of them 503; slowest 503 ${slowest.toFixed(0)} ms`,
    );
    const unavailable = seen.filter((s) => s.status === 503);
    expect(unavailable.length).toBeGreaterThan(0);
    expect(seen.filter((s) => ![200, 503].includes(s.status))).toEqual([]);
    for (const answer of unavailable) {
      expect(answer.retryAfter).toBe('2');
      if (answer.what === 'checkout page') expect(answer.body).toContain('Try again in a moment');
      else
        expect(answer.body).toEqual({
          error: 'ServiceUnavailable',
          message: expect.stringContaining('Retry with the same idempotency key'),
        });
    }
    // The process stays alive and says so, whatever its database does; it says too that it should not be sent requests.
    expect(seen.filter((s) => s.what === 'health').every((s) => s.status === 200)).toBe(true);
    expect(seen.filter((s) => s.what === 'ready' && s.status === 503).length).toBeGreaterThan(0);

    // Back: each sandbox serves reads and writes again, on the state from before the outage.
    for (const sandbox of group.sandboxes) {
      expect((await call(sandbox, 'GET', '/ready', { undocumented: true })).status).toBe(200);
      expect((await call(sandbox, 'GET', sessionPath(id))).status).toBe(200);
      expect(await createSession(sandbox)).toMatch(/.+/);
    }
  });
});

describe('a database that answers, but whose writes are stuck', () => {
  it('a write behind the write lock, held elsewhere, answers 503 with Retry-After, and reads are served', async () => {
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      // What a stuck writer does to every sandbox: the lock every write transaction takes stays taken.
      await holder.query('SELECT pg_advisory_lock($1)', [WRITE_LOCK_KEY.toString()]);
      const sandbox = group.at(1);
      const writes = await Promise.all(
        [1, 2, 3].map((n) =>
          call(sandbox, 'POST', CREATE, {
            body: sessionRequest({ idempotency_key: `stuck-${n}` }),
            undocumented: true,
          }),
        ),
      );
      for (const write of writes) {
        expect(write.status).toBe(503);
        expect(write.headers.get('retry-after')).toBe('2');
        expect(write.body.error).toBe('ServiceUnavailable');
      }
      expect((await call(sandbox, 'GET', '/payments/v1/payment_sessions?limit=1')).status).toBe(200);
    } finally {
      await holder.end();
    }
    // The lock released, the same request is applied.
    const retried = await call(group.at(1), 'POST', CREATE, { body: sessionRequest({ idempotency_key: 'stuck-1' }) });
    expect(retried.status).toBe(200);
  });
});

/** The server's processes: the postmaster on `port`, and its children (Linux's pgrep). */
function serverProcesses(port: string): string[] {
  const master = execFileSync('pgrep', ['-f', `^/.*/bin/postgres -D .* -p ${port} `])
    .toString()
    .trim()
    .split(/\s+/)[0]!;
  return [master, ...execFileSync('pgrep', ['-P', master]).toString().trim().split(/\s+/)];
}

describe('a server that stops answering (frozen)', () => {
  it('a write and a read answer 503 with Retry-After instead of waiting for it, and are served once it answers', async () => {
    const sandbox = group.at(2);
    const processes = serverProcesses(new URL(server.url).port);
    execFileSync('kill', ['-STOP', ...processes]);
    let answers: Array<{ status: number; retryAfter: string | null }>;
    try {
      answers = await Promise.all(
        [
          { method: 'POST', path: CREATE, body: JSON.stringify(sessionRequest({ idempotency_key: 'frozen-1' })) },
          { method: 'GET', path: '/payments/v1/payment_sessions?limit=1' },
        ].map(async ({ method, path, body }) => {
          const response = await fetch(`${sandbox.baseUrl}${path}`, {
            method,
            headers: { 'x-service-api-key': 'sandbox-dev-key', 'content-type': 'application/json' },
            ...(body ? { body } : {}),
            signal: AbortSignal.timeout(HANG_MS),
          });
          await response.text();
          return { status: response.status, retryAfter: response.headers.get('retry-after') };
        }),
      );
    } finally {
      execFileSync('kill', ['-CONT', ...processes]);
    }
    expect(answers).toEqual([
      { status: 503, retryAfter: '2' },
      { status: 503, retryAfter: '2' },
    ]);
    const retried = await call(sandbox, 'POST', CREATE, { body: sessionRequest({ idempotency_key: 'frozen-1' }) });
    expect(retried.status).toBe(200);
  });
});
