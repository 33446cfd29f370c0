// Sends the fuzz corpus to an in-process sandbox and tallies what came back: the statuses and
// codes per operation, the coverage cells, and every failure. A failure is a 5xx, a thrown error,
// an answer the document does not declare (testSandbox checks each one against its schema), or
// an error code outside the enum its operation declares for that status.
import { codeOf, Coverage, declaredCodes, operationOf } from './coverage.js';
import { FUZZED_OPERATIONS, fuzzCorpus, seedFuzzState, type FuzzRequest } from './fuzz-corpus.js';
import { testSandbox } from './sandbox.js';

export interface FuzzTally {
  requests: number;
  statuses: Map<number, number>;
}

export interface FuzzOutcome {
  perOperation: Map<string, FuzzTally>;
  coverage: Coverage;
  failures: string[];
}

export const describeRequest = (r: FuzzRequest) =>
  `${r.method} ${r.url.slice(0, 120)} ${r.headers['content-type'] ?? ''} ${(r.body ?? '').slice(0, 160)}`;

/** operation → status → the codes its document declares there (statuses without an enum are absent). */
const declaredEnums = (() => {
  const found = new Map<string, Set<string>>();
  for (const { operationId, status, code } of declaredCodes()) {
    const key = `${operationId} ${status}`;
    found.set(key, (found.get(key) ?? new Set()).add(code));
  }
  return found;
})();

export async function runFuzz(perOperation: number, seed?: number): Promise<FuzzOutcome> {
  const s = testSandbox();
  try {
    const ids = await seedFuzzState(async (path, body, key) => (await s.post(path, body, key ? { key } : {})).body);
    const outcome: FuzzOutcome = {
      perOperation: new Map(FUZZED_OPERATIONS.map((op) => [op, { requests: 0, statuses: new Map() }])),
      coverage: new Coverage(),
      failures: [],
    };
    for (const request of fuzzCorpus(ids, perOperation, seed)) {
      try {
        const reply = await s.call(request.method, request.url, {
          headers: request.headers,
          key: null,
          ...(request.body !== undefined ? { raw: request.body } : {}),
        });
        const tally = outcome.perOperation.get(request.operationId)!;
        tally.requests += 1;
        tally.statuses.set(reply.status, (tally.statuses.get(reply.status) ?? 0) + 1);
        outcome.coverage.recordAnswer(request.method, request.url, reply.status, reply.body);
        if (reply.status >= 500)
          outcome.failures.push(`${reply.status} ${JSON.stringify(reply.body)} ← ${describeRequest(request)}`);
        const operationId = operationOf(request.method, request.url, reply.status);
        const allowed = operationId && declaredEnums.get(`${operationId} ${reply.status}`);
        const code = codeOf(reply.status, reply.body);
        if (allowed && !allowed.has(code))
          outcome.failures.push(
            `${reply.status} ${code} is not a code ${operationId} declares for ${reply.status} ← ${describeRequest(request)}`,
          );
      } catch (error) {
        outcome.failures.push(`${(error as Error).message.slice(0, 400)} ← ${describeRequest(request)}`);
      }
    }
    return outcome;
  } finally {
    await s.close();
  }
}

/** One line per operation: how many requests, and how many of each status. */
export function fuzzCountsTable(perOperation: Map<string, FuzzTally>): string {
  const lines = [...perOperation.entries()].map(
    ([operationId, { requests, statuses }]) =>
      `| ${operationId} | ${requests} | ${[...statuses.entries()]
        .sort(([a], [b]) => a - b)
        .map(([status, count]) => `${status} ×${count}`)
        .join(', ')} |`,
  );
  return ['| operation | requests | statuses |', '|---|---|---|', ...lines].join('\n');
}
