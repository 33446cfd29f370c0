// Which errors mean the database cannot serve now (store/unavailable.ts), answered 503 with
// Retry-After, and which are faults of the sandbox, answered 500.
import { describe, expect, it } from 'vitest';
import { isStoreUnavailable, StoreUnavailable } from '../../src/sandbox/store/unavailable.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('a database that cannot serve now', () => {
  it.each([
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['a connection reset', withCode('read ECONNRESET', 'ECONNRESET')],
    ['a connection terminated', new Error('Connection terminated unexpectedly')],
    ['a connection that timed out', new Error('Connection terminated due to connection timeout')],
    ['a pool whose connections stayed busy', new Error('timeout exceeded when trying to connect')],
    ['a statement timeout', withCode('canceling statement due to statement timeout', '57014')],
    ['a server shutting down', withCode('terminating connection due to administrator command', '57P01')],
    ['a server starting', withCode('the database system is starting up', '57P03')],
    ['a connection exception', withCode('connection failure', '08006')],
    ['too many connections', withCode('sorry, too many clients already', '53300')],
    ['a write queue that did not move', new StoreUnavailable('gave up')],
    ['an error caused by one of these', new Error('wrapped', { cause: withCode('refused', 'ECONNREFUSED') })],
  ])('%s is unavailable', (_, error) => {
    expect(isStoreUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('duplicate key value violates unique constraint', '23505')],
    ['a syntax error', withCode('syntax error at or near "SELEC"', '42601')],
    ['a plain error', new Error('undefined is not a function')],
    ['a SQLite busy database', withCode('database is locked', 'SQLITE_BUSY')],
    ['not an error', 'ECONNREFUSED'],
  ])('%s is not', (_, error) => {
    expect(isStoreUnavailable(error)).toBe(false);
  });
});
