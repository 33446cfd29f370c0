// The clock, faults and features of each channel are cached in memory (store/fact-cache.ts). The
// cache must never answer what the database no longer holds: another connection's commit empties
// it at the next transaction or request, this connection's own writes replace what they change,
// and a rolled-back write leaves no trace in it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createStore, openDatabase, type Store } from '../../src/sandbox/store/index.js';

const dirs: string[] = [];
const opened: Array<{ close(): void }> = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Two stores on one database file, as two sandbox processes would have. */
function twoConnections(): [Store, Store] {
  const dir = mkdtempSync(path.join(tmpdir(), 'fact-cache-'));
  dirs.push(dir);
  const file = path.join(dir, 'sandbox.db');
  const first = openDatabase(file);
  const second = openDatabase(file);
  opened.push(first, second);
  return [createStore(first), createStore(second)];
}

const offset = (store: Store) => store.read(() => store.clock.offsetSeconds('dev'));

describe('the cached clock, faults and features', () => {
  it("see another connection's writes at this connection's next transaction", () => {
    const [here, there] = twoConnections();
    expect(offset(here)).toBe(0);
    expect(here.read(() => here.faults.anyArmed('dev'))).toBe(false);
    expect(here.read(() => here.features.get('dev'))).toEqual({ authorization: true, tokenization: true });

    there.transaction(() => {
      there.clock.advance('dev', 3600);
      there.faults.arm('dev', 'retrievePaymentSession', { status: 500, error: 'ServerError' }, 1);
      there.features.set('dev', { authorization: false, tokenization: true });
    });
    expect(offset(here)).toBe(3600);
    expect(here.read(() => here.faults.anyArmed('dev'))).toBe(true);
    expect(here.read(() => here.features.get('dev'))).toEqual({ authorization: false, tokenization: true });
  });

  it("see another connection's writes after revalidate(), as a request does when it starts", () => {
    const [here, there] = twoConnections();
    expect(here.faults.anyArmed('dev')).toBe(false);
    there.transaction(() => there.faults.arm('dev', 'listDisputes', { status: 500, error: 'ServerError' }, 1));
    // Without a look at the database, the cache still holds the old answer...
    expect(here.faults.anyArmed('dev')).toBe(false);
    // ...and one look is enough.
    here.revalidate();
    expect(here.faults.anyArmed('dev')).toBe(true);
  });

  it("follow this connection's own writes at once", () => {
    const [here] = twoConnections();
    expect(offset(here)).toBe(0);
    here.transaction(() => here.clock.advance('dev', 60));
    expect(here.clock.offsetSeconds('dev')).toBe(60);
    here.transaction(() => here.faults.arm('dev', 'listDisputes', { status: 500, error: 'ServerError' }, 1));
    expect(here.faults.anyArmed('dev')).toBe(true);
    expect(here.transaction(() => here.faults.take('dev', 'listDisputes'))).toEqual({
      status: 500,
      error: 'ServerError',
    });
    expect(here.faults.anyArmed('dev')).toBe(false);
  });

  it('forget a value written and read inside a transaction that rolled back', () => {
    const [here] = twoConnections();
    expect(offset(here)).toBe(0);
    expect(() =>
      here.transaction(() => {
        here.clock.advance('dev', 999);
        // Read inside the transaction: the cache holds the uncommitted offset for a moment.
        expect(here.clock.offsetSeconds('dev')).toBe(999);
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(here.clock.offsetSeconds('dev')).toBe(0);
    expect(offset(here)).toBe(0);
  });

  it('forget what a channel reset deleted', () => {
    const [here] = twoConnections();
    here.transaction(() => here.clock.advance('dev', 60));
    expect(here.clock.offsetSeconds('dev')).toBe(60);
    here.transaction(() => here.reset.channel('dev'));
    expect(here.clock.offsetSeconds('dev')).toBe(0);
  });

  it('hand out copies: a caller that changes the features it read changes nothing stored', () => {
    const [here] = twoConnections();
    const features = here.read(() => here.features.get('dev'));
    features.authorization = false;
    expect(here.read(() => here.features.get('dev'))).toEqual({ authorization: true, tokenization: true });
  });
});
