// List cost against table size: GET /payments/v1/payment_sessions?page_size=30 on a channel of
// 1,000 sessions and on one of 100,000 (and the same for payment tokens), the same sandbox process type (a child on a SQLite file),
// under autocannon. The ratio of the two shows whether a page costs the page or the table; the
// resident memory of each process after its load shows whether memory stays flat.
import { mkdtempSync, rmSync } from 'node:fs';
import { load, rssMiB } from './load.js';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { newSession } from '../src/sandbox/domain/create-session.js';
import type { CreateSessionRequest, PaymentTokenRecord, Session, SessionStatus } from '../src/sandbox/domain/types.js';
import { createStore, openDatabase } from '../src/sandbox/store/index.js';
import { SANDBOX_API_KEY, startSandboxProcess } from '../testkit/sandbox-process.js';

export const LIST_SIZES = [1_000, 100_000] as const;
// The first page of sessions is the bench's row; BENCH_LIST_ALL=1 adds filtered pages, searches and
// token lists (a short needle cannot use the trigram index: it reads the channel's list index).
const ALL = process.env.BENCH_LIST_ALL === '1';
const SESSION_QUERIES = ALL
  ? [
      'page_size=30',
      'page_size=30&status=captured&kind=authorization',
      'page_size=30&page=20&filter_pending=true',
      'page_size=30&search=buyer99999',
    ]
  : ['page_size=30'];
const TOKEN_QUERIES = ALL
  ? ['page_size=30', 'page_size=30&email=buyer99999', 'page_size=30&card_expires_before=2027-03', 'page_size=30&name=9']
  : [];
const STATUSES: SessionStatus[] = ['pending', 'captured', 'authorized', 'authorization_voided', 'canceled'];
const noCharges = { total_additional_charges: 0, total_discounts: 0 };
const SEED_START = Date.parse('2026-01-01T00:00:00Z');

export interface ListScaleRun {
  sessions: number;
  query: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  failures: number;
  /** The sandbox's resident memory after the load, MiB. */
  rssMiB: number;
}

/** The n-th seeded session of channel dev: one of five statuses, a second after the one before it. */
export function seedSession(n: number, newId: () => string): Session {
  const request: CreateSessionRequest = {
    total_amount: 4999,
    amount_details: noCharges,
    kind: n % 2 ? 'authorization' : 'one_time_payment',
    success_url: 'https://shop.example/ok/{{payment_session_id}}',
    failure_url: 'https://shop.example/ko/{{payment_session_id}}',
    customer_email: `buyer${n}@example.com`,
    customer_name: `Buyer ${n}`,
    idempotency_key: `seed-${n}`,
    order_items: [
      { name: 'Blood pressure monitor', sku: 'BPM-200', quantity: 1, price: 4999, amount_details: noCharges },
    ],
  };
  const session = newSession({
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    channel: 'dev',
    request,
    now: new Date(SEED_START + n * 1000).toISOString(),
    newId,
  });
  session.status = STATUSES[n % STATUSES.length]!;
  return session;
}

/** The n-th seeded payment token of channel dev, made with its session. */
export function seedToken(n: number, session: Session): PaymentTokenRecord {
  const month = String((n % 12) + 1).padStart(2, '0');
  return {
    token: `ptok_seed${n}`,
    channel: 'dev',
    session_id: null,
    status: 'active',
    next_action: null,
    created_at: session.created_at,
    customer_email: `buyer${n}@example.com`,
    customer_name: `Buyer ${n}`,
    customer_key: `buyer${n}@example.com`,
    card_brand: 'visa',
    card_last4: '4242',
    card_expires: `${2027 + (n % 5)}-${month}`,
    lmn_expires_at: `${2027 + (n % 5)}-${month}-15`,
    provision_request_id: null,
    metadata: null,
    success_url: null,
    failure_url: null,
  };
}

/** Writes `count` sessions of channel dev straight into a new database file (no HTTP: seeding is not measured). */
export function seed(file: string, count: number): void {
  const db = openDatabase(file);
  const store = createStore(db);
  let item = 0;
  store.transaction(() => {
    for (let n = 0; n < count; n++) {
      const session = seedSession(n, () => `item${item++}`);
      store.sessions.insert(session);
      store.tokens.insert(seedToken(n, session));
    }
  });
  db.close();
}

export async function benchListScale({
  seconds = Number(process.env.BENCH_SECONDS ?? 5),
} = {}): Promise<ListScaleRun[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-list-bench-'));
  const runs: ListScaleRun[] = [];
  try {
    for (const count of LIST_SIZES) {
      const file = path.join(dir, `sessions-${count}.db`);
      seed(file, count);
      const sandbox = await startSandboxProcess({ db: file, compiled: true });
      try {
        // The last query is the worst case: a substring search matches no index, so it reads the whole
        // channel's index (though never a document).
        for (const query of [
          ...SESSION_QUERIES.map((q) => `payment_sessions?${q}`),
          ...TOKEN_QUERIES.map((q) => `payment_tokens?${q}`),
        ]) {
          const route = `${query.startsWith('payment_tokens') ? '/api/v1/' : '/payments/v1/'}${query}`;
          const result = await load(
            sandbox.baseUrl,
            [{ method: 'GET', path: route, headers: { 'x-service-api-key': SANDBOX_API_KEY } }],
            seconds,
          );
          runs.push({ sessions: count, query, ...result, rssMiB: rssMiB(sandbox.pid) });
        }
      } finally {
        await sandbox.stop();
      }
    }
    return runs;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function listScaleTable(runs: ListScaleRun[]): string {
  const lines = [
    `  ${'rows'.padStart(9)}  ${'query'.padEnd(50)}${'req/s'.padStart(8)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'failed'.padStart(8)}${'RSS MiB'.padStart(9)}`,
  ];
  for (const run of runs) {
    lines.push(
      `  ${String(run.sessions).padStart(9)}  ${run.query.padEnd(50)}${run.requestsPerSecond.toFixed(0).padStart(8)}${run.p50Ms.toFixed(0).padStart(8)}${run.p99Ms.toFixed(0).padStart(8)}${String(run.failures).padStart(8)}${run.rssMiB.toFixed(0).padStart(9)}`,
    );
  }
  const [small, large] = LIST_SIZES;
  lines.push(`  Ratios (${large} ÷ ${small} rows; 1.00x means the page costs the same whatever the table):`);
  for (const query of [...new Set(runs.map((r) => r.query))]) {
    const a = runs.find((r) => r.query === query && r.sessions === small)!;
    const b = runs.find((r) => r.query === query && r.sessions === large)!;
    lines.push(
      `  ${query.padEnd(50)}${(b.requestsPerSecond / a.requestsPerSecond).toFixed(2).padStart(6)}x req/s ${(b.p99Ms / a.p99Ms).toFixed(2).padStart(6)}x p99 ${(b.rssMiB / a.rssMiB).toFixed(2).padStart(6)}x RSS`,
    );
  }
  return lines.join('\n');
}
