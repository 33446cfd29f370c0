// The contract scenarios and the fuzz, together: every workflow of openapi/workflows/ replayed
// green against a sandbox on :memory: (`npm run contract`), 300 hostile requests per operation in
// process (`npm run fuzz`), and then the table of what they produced. Every error code an
// operation declares must come out of one of them, unless the allow-list of testkit/
// coverage.ts names it with its reason; an allow-listed code must still be answerable (through the
// fault helper), and must not come out of a real state (the entry would be stale).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations, repoRoot } from '../../testkit/contract.js';
import {
  Coverage,
  coverageByToolTable,
  coverageGaps,
  declaredCodes,
  isUnreachable,
  UNREACHABLE,
} from '../../testkit/coverage.js';
import { FUZZED_OPERATIONS } from '../../testkit/fuzz-corpus.js';
import { fuzzCountsTable, runFuzz, type FuzzOutcome } from '../../testkit/fuzz-run.js';
import { testSandbox, type TestSandbox } from '../../testkit/sandbox.js';
import { COMMON_ERRORS, ERRORS_400, OPERATIONS } from '../spec/reference.js';

const PER_OPERATION = 300;
const WORKFLOWS = 23;

const scratch = mkdtempSync(path.join(tmpdir(), 'contract-coverage-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let replay: { status: number | null; output: string; coverage: Coverage };
let fuzz: FuzzOutcome;

beforeAll(async () => {
  const coverageFile = path.join(scratch, 'workflows.json');
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'contract-checks/scenarios.ts', '--coverage-out', coverageFile],
    {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 180_000,
      env: { ...process.env, NO_COLOR: '1' },
    },
  );
  const output = `${result.stdout}${result.stderr}`;
  let coverage = new Coverage();
  try {
    coverage = Coverage.fromJSON(JSON.parse(readFileSync(coverageFile, 'utf8')));
  } catch {
    // No file: the replay failed before it; the first test shows Respect's report.
  }
  replay = { status: result.status, output, coverage };
  fuzz = await runFuzz(PER_OPERATION);
}, 240_000);

describe('npm run contract, against a sandbox on :memory:', () => {
  it('replays every workflow green', () => {
    // One summary per file: every workflow of every file passed.
    const summaries = [...replay.output.matchAll(/Workflows: (.*)/g)].map((m) => m[1]!.trim());
    expect(summaries, replay.output.slice(-4000)).toHaveLength(6);
    expect(
      summaries.every((line) => /^\d+ passed, \d+ total$/.test(line)),
      replay.output.slice(-4000),
    ).toBe(true);
    expect(summaries.reduce((sum, line) => sum + Number(/^(\d+)/.exec(line)![1]), 0)).toBe(WORKFLOWS);
    expect(replay.status, replay.output.slice(-4000)).toBe(0);
    expect(replay.output).toContain('Error codes the workflows produced:');
  });
});

describe(`the negative fuzz, ${PER_OPERATION} requests per operation`, () => {
  it("answers no 5xx, and every answer, each 4xx included, conforms to its operation's schema and declared codes", () => {
    console.log(`Fuzz, requests and statuses per operation:\n\n${fuzzCountsTable(fuzz.perOperation)}\n`);
    expect(fuzz.failures).toEqual([]);
    expect([...fuzz.perOperation.values()].every((t) => t.requests === PER_OPERATION)).toBe(true);
  });

  it('reaches past validation: each operation is both accepted and refused, a wrong method answers 405, and a missing or unknown key 401', () => {
    const reached: Record<string, number[]> = {
      createPaymentSession: [200, 400],
      retrievePaymentSession: [200, 404],
      listPaymentSessions: [200, 400],
      capturePaymentSession: [200, 400, 404],
      cancelPaymentSession: [200, 400, 404],
      voidPaymentSession: [200, 400, 404],
      createRefund: [200, 400],
      createPaymentToken: [200, 400],
      retrievePaymentToken: [200, 404],
      listPaymentTokens: [200, 400],
      updatePaymentToken: [200, 400, 404],
      deletePaymentToken: [200, 404],
      retrieveProvisionTokenRequest: [200, 404],
      retrieveProvisionRequestEligibility: [200, 400, 404],
      listCatalogItems: [200, 400],
      createCatalogItem: [200, 400, 409],
      updateCatalogItem: [200, 400],
      retrieveCatalogItem: [200, 400],
      retrieveCheckoutMethod: [200],
      retrieveDispute: [200, 404],
      retrieveDisputeRecord: [200, 404],
      listDisputes: [200, 400],
      acceptDispute: [200, 404],
    };
    for (const operationId of FUZZED_OPERATIONS) {
      const statuses = [...fuzz.perOperation.get(operationId)!.statuses.keys()];
      expect({ operationId, statuses }).toEqual({
        operationId,
        statuses: expect.arrayContaining([...reached[operationId]!, 401, 405]),
      });
    }
  });
});

describe('coverage of the error codes', () => {
  it('produces every code the operations declare, but those allow-listed; and none of those', () => {
    const both = new Coverage().merge(replay.coverage).merge(fuzz.coverage);
    // Schemathesis's codes join the table when npm run conformance has run here (it needs Python);
    // the check below holds the project's own tools to every code either way.
    const conformance = path.join(repoRoot, 'test-results', 'conformance', 'coverage.json');
    const schemathesis = existsSync(conformance)
      ? Coverage.fromJSON(JSON.parse(readFileSync(conformance, 'utf8')))
      : undefined;
    const table = coverageByToolTable([
      { tool: 'workflows', coverage: replay.coverage },
      { tool: `fuzz (${PER_OPERATION}/op)`, coverage: fuzz.coverage },
      { tool: 'Schemathesis', coverage: schemathesis },
    ]);
    console.log(
      `Error codes produced by the workflows, the fuzz and Schemathesis (npm run conformance):\n\n${table}\n`,
    );
    const { missing, stale } = coverageGaps(both);
    expect(missing, 'declared codes no workflow and no fuzzed request produced').toEqual([]);
    expect(stale, 'allow-listed codes that a real state produced: remove their entries').toEqual([]);
  });

  it('holds every code of the reference, so the check above covers them all', () => {
    // The coverage reads the document's enums; tests/spec/reference.ts transcribes the reference's.
    const declared = new Set(
      declaredCodes().map(({ operationId, status, code }) => `${operationId} ${status} ${code}`),
    );
    const ofReference = [
      ...Object.entries(ERRORS_400).flatMap(([operationId, { codes }]) =>
        codes.map((code) => `${operationId} 400 ${code}`),
      ),
      ...OPERATIONS.flatMap(({ operationId }) =>
        Object.entries(COMMON_ERRORS).flatMap(([status, { codes }]) =>
          codes.map((code) => `${operationId} ${status} ${code}`),
        ),
      ),
      'createPaymentSession 422 TakeHealthSurvey',
      'createPaymentSession 422 UpdatePaymentMethod',
    ];
    expect(ofReference.filter((cell) => !declared.has(cell))).toEqual([]);
  });

  it('gives each allow-list entry its reason', () => {
    for (const entry of UNREACHABLE) expect(entry.reason.length, JSON.stringify(entry)).toBeGreaterThan(40);
  });

  describe('the allow-listed codes a fault injects', () => {
    let s: TestSandbox;
    beforeAll(() => {
      s = testSandbox();
    });
    afterAll(() => s.close());

    it('are answered by each operation once the fault helper arms them', async () => {
      const injectable = declaredCodes().filter((cell) => isUnreachable(cell) && cell.status !== 404);
      expect(injectable.length).toBeGreaterThan(40);
      for (const cell of injectable) {
        const { method, path: template } = operations().find((o) => o.op.operationId === cell.operationId)!;
        const url = template.replace(/\{[^}]+\}/g, '7c9e6679-7425-40de-944b-e07fc1f90ae7');
        const fault = cell.status === 400 ? { status: 400, error: cell.code } : { status: cell.status };
        expect(
          (await s.post('/sandbox/v1/faults', { operation_id: cell.operationId, ...fault, count: 1 })).status,
        ).toBe(200);
        const reply = await s.call(method.toUpperCase(), url, method === 'post' ? { body: {} } : {});
        expect({ ...cell, answered: [reply.status, reply.body.error] }).toEqual({
          ...cell,
          answered: [cell.status, cell.code],
        });
      }
    });
  });
});
