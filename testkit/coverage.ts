// What the contract scenarios and the fuzz produced: a count per operation × status × error code,
// read from the answers themselves (an error's `error`, a 422's `next_action`). The codes to reach
// come from the document: every value of every error enum each operation declares. The ones no
// state can reach are allow-listed below, each with its reason; the suite fails on any other code
// never produced, and on an allow-listed one that was produced after all (a stale entry).
import { templateMatches } from '../src/sandbox/http/document.js';
import { documentedValues } from '../src/sandbox/http/document-facts.js';
import { decodedSegments } from './paths.js';
import { contract, operations, resolve, type MediaType } from './contract.js';

export interface Cell {
  operationId: string;
  status: number;
  /** The error code (or a 422's next_action); '' for a success. */
  code: string;
}

const keyOf = ({ operationId, status, code }: Cell) => `${operationId} ${status} ${code}`;

/** The contract's operations, literal paths first so that `/payment_tokens/provision_request/{id}` wins over `/{payment_token}/…`. */
const routes = operations(contract)
  .map(({ method, path, op }) => ({
    method,
    path,
    operationId: op.operationId!,
    literals: path.split('/').filter((s) => s && !s.startsWith('{')).length,
  }))
  .sort((a, b) => b.literals - a.literals);

const decodedPath = (url: string) => decodedSegments(new URL(url, 'http://x').pathname);

/**
 * The contract operation a request reached: the one whose method and path match, or, for a
 * method its path does not take (405), the operation of that path. Undefined for helpers and
 * unknown routes, which belong to no operation.
 */
export function operationOf(method: string, url: string, status: number): string | undefined {
  const path = decodedPath(url);
  const onPath = routes.filter((r) => templateMatches(r.path, path));
  const exact = onPath.find((r) => r.method === method.toLowerCase());
  if (exact) return exact.operationId;
  return status === 405 ? onPath[0]?.operationId : undefined;
}

/** The code an answer carries: its `error`, or a 422's `next_action`; '' when it has none. */
export function codeOf(status: number, body: unknown): string {
  if (status < 400 || typeof body !== 'object' || body === null) return '';
  const { error, next_action: nextAction } = body as { error?: unknown; next_action?: unknown };
  return String(status === 422 ? (nextAction ?? '') : (error ?? ''));
}

export class Coverage {
  private readonly counts = new Map<string, { cell: Cell; count: number }>();

  record(cell: Cell, count = 1): void {
    const key = keyOf(cell);
    const found = this.counts.get(key);
    if (found) found.count += count;
    else this.counts.set(key, { cell, count });
  }

  /** Records an answer of a request, if the request reached a contract operation. */
  recordAnswer(method: string, url: string, status: number, body: unknown): void {
    const operationId = operationOf(method, url, status);
    if (operationId) this.record({ operationId, status, code: codeOf(status, body) });
  }

  merge(other: Coverage): this {
    for (const { cell, count } of other.counts.values()) this.record(cell, count);
    return this;
  }

  count(cell: Cell): number {
    return this.counts.get(keyOf(cell))?.count ?? 0;
  }

  cells(): Array<Cell & { count: number }> {
    return [...this.counts.values()].map(({ cell, count }) => ({ ...cell, count }));
  }

  /** Reads a HAR file (what `redocly respect --har-output` writes): each entry's request and answer. */
  static fromHar(text: string): Coverage {
    const coverage = new Coverage();
    const har = JSON.parse(text) as {
      log: {
        entries: Array<{
          request: { method: string; url: string };
          response: { status: number; content?: { text?: string } };
        }>;
      };
    };
    for (const { request, response } of har.log.entries) {
      let body: unknown;
      try {
        body = JSON.parse(response.content?.text ?? '');
      } catch {
        body = undefined;
      }
      coverage.recordAnswer(request.method, request.url, response.status, body);
    }
    return coverage;
  }

  toJSON(): Array<Cell & { count: number }> {
    return this.cells();
  }

  static fromJSON(cells: Array<Cell & { count: number }>): Coverage {
    const coverage = new Coverage();
    for (const { count, ...cell } of cells) coverage.record(cell, count);
    return coverage;
  }
}

/** Every error code each contract operation declares: its error enums, and the 422's next_action. */
export function declaredCodes(): Cell[] {
  const cells: Cell[] = [];
  for (const { op } of operations(contract)) {
    for (const [status, declared] of Object.entries(op.responses)) {
      if (Number(status) < 400) continue;
      const media = resolve<{ content?: Record<string, MediaType> }>(declared).content?.['application/json'];
      const schema = media?.schema && resolve<{ properties?: Record<string, { $ref?: string }> }>(media.schema);
      const field = schema?.properties?.[status === '422' ? 'next_action' : 'error'];
      const values = field ? documentedValues(resolve<Parameters<typeof documentedValues>[0]>(field)) : [];
      for (const code of values) cells.push({ operationId: op.operationId!, status: Number(status), code });
    }
  }
  return cells;
}

interface Unreachable {
  /** The operations the entry holds for; '*' for every one. */
  operations: string[] | '*';
  status: number;
  code: string;
  reason: string;
}

const NO_PATH_ID = [
  'listPaymentSessions',
  'createRefund',
  'createPaymentToken',
  'listPaymentTokens',
  'listCatalogItems',
  'createCatalogItem',
  'retrieveCheckoutMethod',
  'listDisputes',
];
const FAULT =
  'An internal failure: no request and no state produces it. The fault helper (POST /sandbox/v1/faults) injects it, and tests/sandbox/transitions.test.ts checks that operations answer it then.';

/** The codes no state of the sandbox can reach, each with why. */
export const UNREACHABLE: Unreachable[] = [
  { operations: '*', status: 500, code: 'ServerError', reason: FAULT },
  {
    operations: [
      'createPaymentSession',
      'capturePaymentSession',
      'voidPaymentSession',
      'cancelPaymentSession',
      'createPaymentToken',
    ],
    status: 400,
    code: 'ServerError',
    reason: FAULT,
  },
  {
    operations: '*',
    status: 501,
    code: 'NotImplemented',
    reason: 'Every operation is implemented; only the fault helper answers 501.',
  },
  {
    operations: ['retrieveProvisionRequestEligibility'],
    status: 400,
    code: 'TotalAmountInvalid',
    reason:
      'The reference lists it, but the request carries no amount to be invalid: only the fault helper answers it.',
  },
  {
    operations: NO_PATH_ID,
    status: 404,
    code: 'NotFound',
    reason:
      'The path holds no id, so the route always matches and nothing is looked up by path: a 404 there is an unknown route, which belongs to no operation.',
  },
];

export const isUnreachable = (cell: Cell) =>
  UNREACHABLE.some(
    (u) =>
      u.status === cell.status &&
      u.code === cell.code &&
      (u.operations === '*' || u.operations.includes(cell.operationId)),
  );

/**
 * The table, one row per operation × status, its codes with their counts; declared codes not
 * produced are marked, with `unproduced` (a partial run, such as one environment's workflows, says
 * so more calmly than the suite).
 */
export function coverageTable(coverage: Coverage, unproduced = 'NEVER PRODUCED'): string {
  const rows = new Map<string, string[]>();
  const cellsOf = (operationId: string, status: number) => {
    const key = `${operationId}|${status}`;
    if (!rows.has(key)) rows.set(key, []);
    return rows.get(key)!;
  };
  for (const { operationId, status, code, count } of coverage.cells().sort((a, b) => a.code.localeCompare(b.code))) {
    cellsOf(operationId, status).push(`${code || '—'} ×${count}`);
  }
  for (const cell of declaredCodes()) {
    if (coverage.count(cell) === 0)
      cellsOf(cell.operationId, cell.status).push(
        isUnreachable(cell) ? `${cell.code} (allow-listed)` : `${cell.code} ${unproduced}`,
      );
  }
  const order = operations(contract).map(({ op }) => op.operationId!);
  const lines = [...rows.entries()]
    .map(([key, codes]) => ({ operationId: key.split('|')[0]!, status: Number(key.split('|')[1]), codes }))
    .sort((a, b) => order.indexOf(a.operationId) - order.indexOf(b.operationId) || a.status - b.status)
    .map(({ operationId, status, codes }) => `| ${operationId} | ${status} | ${codes.join(', ')} |`);
  return ['| operation | status | codes produced (count) |', '|---|---|---|', ...lines].join('\n');
}

/** Declared codes that are neither produced nor allow-listed, and allow-listed codes that were produced. */
export function coverageGaps(coverage: Coverage): { missing: Cell[]; stale: Cell[] } {
  const declared = declaredCodes();
  return {
    missing: declared.filter((cell) => coverage.count(cell) === 0 && !isUnreachable(cell)),
    stale: declared.filter((cell) => coverage.count(cell) > 0 && isUnreachable(cell)),
  };
}

export interface ToolCoverage {
  /** The column's title: the tool that produced these answers. */
  tool: string;
  /** Its answers; undefined when the tool did not run here (its column says so). */
  coverage: Coverage | undefined;
}

/**
 * One table of every declared code and every code produced, one row per operation × status × code,
 * with a column per tool giving how often that tool produced it. A declared code no tool produced
 * is marked, allow-listed or not.
 */
export function coverageByToolTable(tools: ToolCoverage[], unproduced = 'NEVER PRODUCED'): string {
  const rows = new Map<string, Cell>();
  for (const cell of declaredCodes()) rows.set(`${cell.operationId} ${cell.status} ${cell.code}`, cell);
  for (const { coverage } of tools)
    for (const cell of coverage?.cells() ?? []) rows.set(`${cell.operationId} ${cell.status} ${cell.code}`, cell);
  const order = operations(contract).map(({ op }) => op.operationId!);
  const lines = [...rows.values()]
    .sort(
      (a, b) =>
        order.indexOf(a.operationId) - order.indexOf(b.operationId) ||
        a.status - b.status ||
        a.code.localeCompare(b.code),
    )
    .map((cell) => {
      const counts = tools.map(({ coverage }) =>
        coverage === undefined ? 'not run' : String(coverage.count(cell) || '·'),
      );
      const none = tools.every(({ coverage }) => (coverage?.count(cell) ?? 0) === 0);
      const note = none ? (isUnreachable(cell) ? 'allow-listed' : unproduced) : '';
      return `| ${cell.operationId} | ${cell.status} | ${cell.code || '—'} | ${counts.join(' | ')} | ${note} |`;
    });
  const header = `| operation | status | code | ${tools.map((t) => t.tool).join(' | ')} | |`;
  return [header, `|---|---|---|${tools.map(() => '---:|').join('')}---|`, ...lines].join('\n');
}
