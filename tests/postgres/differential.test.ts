// The two backends answer alike: one seeded random sequence of requests, over every operation of the
// contract and every helper (differential-commands.ts lists them, and what is left out and why),
// with retries, retries under a changed body, concurrent duplicates and invalid input, runs against
// a sandbox on SQLite :memory: and a sandbox on a fresh PostgreSQL database. Every answer must be
// the same, once each side's minted ids are replaced by symbols in order of appearance (so a
// reference is still checked) and random secrets are blanked. Times are compared as they are: Date
// is faked to one instant that both sides read, moved on only between requests, so the sandbox
// clocks of both agree to the millisecond; the retry schedule's jitter is one fixed draw.
//
// DIFFERENTIAL_SEED overrides the seed, DIFFERENTIAL_RUNS the number of runs (20: about 20 to 25 s
// on 2 busy cores, each on a database of its own), DIFFERENTIAL_COMMANDS the most commands of a run
// (80), and DIFFERENTIAL_LOG=1 prints each run's requests and answers. A difference is shrunk by
// fast-check to its shortest sequence, printed with the seed and path that replay it;
// differential-pinned.test.ts keeps those found.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { operations, contract, loadDocument } from '../../testkit/contract.js';
import { SANDBOX_FILE } from '../../src/sandbox/http/document.js';
import { testDatabase } from '../support/postgres-database.js';
import { COVERED, commandArbitraries, emptyModel, type Real } from './differential-commands.js';
import { postgresSide, sqliteSide } from './differential-support.js';

const SEED = Number(process.env.DIFFERENTIAL_SEED ?? 20261128);
const RUNS = Number(process.env.DIFFERENTIAL_RUNS ?? 20);
const COMMANDS = Number(process.env.DIFFERENTIAL_COMMANDS ?? 80);
const START = Date.parse('2026-03-02T09:00:00.000Z');

beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  // A failed delivery's next attempt is jittered (domain/retry-schedule.ts): the same draw on both
  // sides, so that the time of the retry is compared too. fast-check draws from its own generator.
  vi.spyOn(Math, 'random').mockReturnValue(0.5);
});
afterAll(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('the SQLite and the PostgreSQL sandbox', () => {
  it('cover every operation of the contract and every helper', () => {
    const declared = [contract, loadDocument(SANDBOX_FILE)].flatMap((doc) =>
      operations(doc).map((o) => o.op.operationId as string),
    );
    expect(declared.filter((id) => !COVERED.includes(id))).toEqual([]);
  });

  it('give the same answers to the same seeded sequence of requests, ids and secrets aside', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commandArbitraries, { maxCommands: COMMANDS, size: 'max' }), async (commands) => {
        vi.setSystemTime(START);
        const real: Real = {
          sqlite: await sqliteSide(),
          postgres: await postgresSide(await testDatabase('diff')),
          log: [],
        };
        try {
          await fc.asyncModelRun(() => ({ model: emptyModel(), real }), commands);
          if (process.env.DIFFERENTIAL_LOG) console.log(real.log.join('\n'));
        } finally {
          await real.sqlite.close();
          await real.postgres.close();
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: false, verbose: 1 },
    );
  }, 600_000);
});
