// tsx bench/sqlite-drivers.ts: better-sqlite3 against Node's built-in node:sqlite, on the
// sandbox's kind of work, in one process, alternating rounds so that both meet the same machine:
//   - create: one immediate transaction that inserts a session (a 1.5 KB JSON document), its
//     idempotency key and its list item, on a WAL file with synchronous=OFF, as the sandbox does;
//   - retrieve: one prepared SELECT of a document by primary key and channel;
//   - list: a page of 30 stored list items, newest first, on the (channel, seq) index.
// It prints operations per second for each driver and the ratio. The sandbox stays on the driver
// this measures faster; CONTRIBUTING.md says which and why.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import BetterSqlite3 from 'better-sqlite3';

const SCHEMA = `
  CREATE TABLE sessions (id TEXT PRIMARY KEY, channel TEXT NOT NULL, seq INTEGER NOT NULL, doc TEXT NOT NULL, list_item TEXT NOT NULL);
  CREATE INDEX sessions_by_channel ON sessions (channel, seq DESC);
  CREATE TABLE idempotency (channel TEXT NOT NULL, key TEXT NOT NULL, session_id TEXT NOT NULL, PRIMARY KEY (channel, key));`;
const PRAGMAS = ['journal_mode = WAL', 'synchronous = OFF', 'foreign_keys = ON'];
const DOC = JSON.stringify({
  kind: 'authorization',
  status: 'pending',
  order_items: Array.from({ length: 3 }, (_, i) => ({
    item_id: `line-${i}`,
    name: `Item ${i}`,
    sku: `SKU-${i}`,
    quantity: 1,
    price: 4999,
    amount_details: { total_additional_charges: 0, total_discounts: 0 },
  })),
  metadata: 'x'.repeat(900),
});

/** The three operations, written once per driver's API. */
interface Driver {
  name: string;
  create(i: number): void;
  retrieve(i: number): void;
  list(): void;
  close(): void;
}

function betterSqlite3(file: string): Driver {
  const db = new BetterSqlite3(file);
  for (const pragma of PRAGMAS) db.pragma(pragma);
  db.exec(SCHEMA);
  const insert = db.prepare('INSERT INTO sessions (id, channel, seq, doc, list_item) VALUES (?, ?, ?, ?, ?)');
  const key = db.prepare('INSERT INTO idempotency (channel, key, session_id) VALUES (?, ?, ?)');
  const select = db.prepare('SELECT doc FROM sessions WHERE id = ? AND channel = ?').pluck();
  const page = db.prepare('SELECT list_item FROM sessions WHERE channel = ? ORDER BY seq DESC LIMIT 30').pluck();
  const create = db.transaction((i: number) => {
    insert.run(`s-${i}`, 'dev', i, DOC, DOC.slice(0, 300));
    key.run('dev', `k-${i}`, `s-${i}`);
  });
  return {
    name: 'better-sqlite3',
    create: (i) => create.immediate(i),
    retrieve: (i) => void select.get(`s-${i}`, 'dev'),
    list: () => void page.all('dev'),
    close: () => db.close(),
  };
}

function nodeSqlite(file: string): Driver {
  const db = new DatabaseSync(file);
  for (const pragma of PRAGMAS) db.exec(`PRAGMA ${pragma}`);
  db.exec(SCHEMA);
  const insert = db.prepare('INSERT INTO sessions (id, channel, seq, doc, list_item) VALUES (?, ?, ?, ?, ?)');
  const key = db.prepare('INSERT INTO idempotency (channel, key, session_id) VALUES (?, ?, ?)');
  const select = db.prepare('SELECT doc FROM sessions WHERE id = ? AND channel = ?');
  const page = db.prepare('SELECT list_item FROM sessions WHERE channel = ? ORDER BY seq DESC LIMIT 30');
  return {
    name: 'node:sqlite',
    create(i) {
      db.exec('BEGIN IMMEDIATE');
      try {
        insert.run(`s-${i}`, 'dev', i, DOC, DOC.slice(0, 300));
        key.run('dev', `k-${i}`, `s-${i}`);
        db.exec('COMMIT');
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    },
    retrieve: (i) => void select.get(`s-${i}`, 'dev'),
    list: () => void page.all('dev'),
    close: () => db.close(),
  };
}

const ROUNDS = 5;
const PER_ROUND = { create: 20_000, retrieve: 100_000, list: 20_000 } as const;

const dir = mkdtempSync(path.join(tmpdir(), 'sqlite-drivers-'));
const drivers = [betterSqlite3(path.join(dir, 'better.db')), nodeSqlite(path.join(dir, 'node.db'))];
const best = new Map<string, number>();
const time = (run: () => void, count: number) => {
  const started = performance.now();
  run();
  return count / ((performance.now() - started) / 1000);
};
for (let round = 0; round < ROUNDS; round++) {
  for (const driver of round % 2 === 0 ? drivers : [...drivers].reverse()) {
    const base = round * PER_ROUND.create;
    const rates = {
      create: time(() => {
        for (let i = 0; i < PER_ROUND.create; i++) driver.create(base + i);
      }, PER_ROUND.create),
      retrieve: time(() => {
        for (let i = 0; i < PER_ROUND.retrieve; i++) driver.retrieve((i * 7919) % (base + PER_ROUND.create));
      }, PER_ROUND.retrieve),
      list: time(() => {
        for (let i = 0; i < PER_ROUND.list; i++) driver.list();
      }, PER_ROUND.list),
    };
    for (const [operation, rate] of Object.entries(rates)) {
      const id = `${driver.name} ${operation}`;
      best.set(id, Math.max(best.get(id) ?? 0, rate));
    }
  }
}
for (const driver of drivers) driver.close();
rmSync(dir, { recursive: true, force: true });

console.log(`Node ${process.version}, best of ${ROUNDS} alternating rounds, operations per second:`);
console.log('operation  better-sqlite3  node:sqlite  better-sqlite3 / node:sqlite');
for (const operation of Object.keys(PER_ROUND)) {
  const [a, b] = [best.get(`better-sqlite3 ${operation}`)!, best.get(`node:sqlite ${operation}`)!];
  console.log(
    `${operation.padEnd(9)}  ${a.toFixed(0).padStart(14)}  ${b.toFixed(0).padStart(11)}  ${(a / b).toFixed(2).padStart(28)}`,
  );
}
