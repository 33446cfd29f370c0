// Stryker's incremental mode reuses a mutant's result when its code and the tests that killed it did
// not change, and it tells a change by the characters: a formatting change (a wrapped line, an
// argument list on several lines, a trailing comma) re-tests every mutant and test it touches, which
// for a change of the formatter is nearly the whole run (over two hours here).
//
// This tells a change by the tokens instead. For each file of the incremental result whose code
// changed, it compares the recorded and the current tokens (TypeScript's parser; comments,
// whitespace and trailing commas left out) and rewrites the result to the current source: each
// mutant and each test whose tokens are unchanged is moved to its new place, and each one whose
// tokens changed is left out, so that Stryker runs it as new. Whether a result is reused stays
// Stryker's decision, by its own rules; only the measure of "changed" is different. A file whose
// tokens changed at all is named (`tokensChanged`): Stryker must then run, since only it makes
// the mutants of new code.
import { createRequire } from 'node:module';
import ts from 'typescript';

export interface Position {
  line: number;
  column: number;
}
export interface Located {
  location: { start: Position; end?: Position };
}
/** A test as the report holds it: without a location, Stryker takes it to span the whole file. */
export interface ReportTest {
  id: string;
  location?: { start: Position };
}
export interface IncrementalReport {
  files: Record<string, { source: string; mutants: Array<Located & { location: { end: Position } }> }>;
  testFiles?: Record<string, { source?: string; tests: ReportTest[] }>;
}
export interface CarryOverCount {
  files: number;
  /**
   * The files whose tokens changed, not only their spacing: Stryker must run on them, for what
   * was left out and for the mutants of code that is new (which the result never held).
   */
  tokensChanged: string[];
  mutantsMoved: number;
  mutantsLeftOut: number;
  testsMoved: number;
  testsLeftOut: number;
}

interface Token {
  text: string;
  start: number;
  end: number;
}

const CLOSING = new Set([
  ts.SyntaxKind.CloseParenToken,
  ts.SyntaxKind.CloseBracketToken,
  ts.SyntaxKind.CloseBraceToken,
]);

/**
 * The tokens of `source`, in order, as a formatter cannot change them: without trivia, JSDoc,
 * semicolons, trailing commas and a union's or intersection's leading `|` or `&`, and each string
 * literal by its value (a formatter may change its quotes).
 */
export function tokensOf(source: string, fileName = 'file.ts'): Token[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, scriptKind(fileName));
  const leaves: Array<Token & { kind: ts.SyntaxKind }> = [];
  const visit = (node: ts.Node) => {
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    const children = node.getChildren(file);
    if (children.length === 0) {
      if (node.kind === ts.SyntaxKind.EndOfFileToken || node.kind === ts.SyntaxKind.SyntaxList) return;
      const start = node.getStart(file);
      const text = ts.isStringLiteral(node) ? `string ${JSON.stringify(node.text)}` : source.slice(start, node.end);
      leaves.push({ kind: node.kind, text, start, end: node.end });
      return;
    }
    for (const child of children) visit(child);
  };
  visit(file);
  return leaves.filter((token, index) => {
    if (token.kind === ts.SyntaxKind.SemicolonToken) return false;
    if (token.kind === ts.SyntaxKind.CommaToken) return !CLOSING.has(leaves[index + 1]?.kind as ts.SyntaxKind);
    if (token.kind === ts.SyntaxKind.BarToken || token.kind === ts.SyntaxKind.AmpersandToken) {
      return !LEADING.has(leaves[index - 1]?.kind as ts.SyntaxKind);
    }
    return true;
  });
}

// What may stand before a union's or intersection's optional leading `|` or `&`.
const LEADING = new Set([
  ts.SyntaxKind.EqualsToken,
  ts.SyntaxKind.ColonToken,
  ts.SyntaxKind.OpenParenToken,
  ts.SyntaxKind.LessThanToken,
  ts.SyntaxKind.CommaToken,
]);

function scriptKind(fileName: string): ts.ScriptKind {
  return /\.(m|c)?js$/.test(fileName) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
}

type Diff = Array<[number, string]>;
interface DiffMatchPatch {
  Diff_Timeout: number;
  diff_main(a: string, b: string, checkLines: boolean): Diff;
}
// Stryker's own incremental mode diffs with diff-match-patch; so does this, on tokens coded as characters.
const DiffMatchPatchClass = createRequire(import.meta.url)('diff-match-patch') as new () => DiffMatchPatch;

/** For each old token's index, the index of the same token in the new list, or -1 where it changed. */
export function alignTokens(before: Token[], after: Token[]): Int32Array | undefined {
  const codes = new Map<string, string>();
  const code = (text: string) => {
    let found = codes.get(text);
    if (found === undefined) {
      // Skip the surrogate range, so that every token is one whole character.
      const next = codes.size + 1 < 0xd800 ? codes.size + 1 : codes.size + 1 + 0x800;
      if (next > 0xffff) return undefined;
      found = String.fromCharCode(next);
      codes.set(text, found);
    }
    return found;
  };
  let left = '';
  let right = '';
  for (const token of before) {
    const c = code(token.text);
    if (c === undefined) return undefined;
    left += c;
  }
  for (const token of after) {
    const c = code(token.text);
    if (c === undefined) return undefined;
    right += c;
  }
  const differ = new DiffMatchPatchClass();
  differ.Diff_Timeout = 0;
  const map = new Int32Array(before.length).fill(-1);
  let i = 0;
  let j = 0;
  for (const [operation, text] of differ.diff_main(left, right, false)) {
    if (operation === 0) for (let k = 0; k < text.length; k++) map[i++] = j++;
    else if (operation === -1) i += text.length;
    else j += text.length;
  }
  return map;
}

/** Offsets of each line's start, for the report's positions (line and column both from 1). */
function lineStarts(source: string): number[] {
  const starts = [0];
  for (let index = source.indexOf('\n'); index !== -1; index = source.indexOf('\n', index + 1)) starts.push(index + 1);
  return starts;
}
const offsetOf = (starts: number[], { line, column }: Position) => (starts[line - 1] ?? Number.NaN) + column - 1;
function positionOf(starts: number[], offset: number): Position {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] as number) <= offset) low = middle;
    else high = middle - 1;
  }
  return { line: low + 1, column: offset - (starts[low] as number) + 1 };
}

/** Maps old offsets to new ones through aligned tokens; a range moves only if all its tokens moved together. */
class TokenMap {
  private readonly startIndex = new Map<number, number>();
  private readonly endIndex = new Map<number, number>();
  private readonly oldStarts: number[];
  private readonly newStarts: number[];

  constructor(
    private readonly before: Token[],
    private readonly after: Token[],
    private readonly map: Int32Array,
    private readonly oldSource: string,
    private readonly newSource: string,
  ) {
    before.forEach((token, index) => {
      this.startIndex.set(token.start, index);
      this.endIndex.set(token.end, index);
    });
    this.oldStarts = lineStarts(oldSource);
    this.newStarts = lineStarts(newSource);
  }

  /** The new position of the token that starts at `start`, when it is unchanged. */
  position(start: Position): Position | undefined {
    const index = this.startIndex.get(offsetOf(this.oldStarts, start));
    const mapped = index === undefined ? -1 : (this.map[index] as number);
    return mapped < 0 ? undefined : positionOf(this.newStarts, (this.after[mapped] as Token).start);
  }

  /** The new place of the tokens from `start` to `end` (old offsets), when none of them changed. */
  range(start: number, end: number): { start: Position; end: Position } | undefined {
    const first = this.startIndex.get(start);
    // A statement's range ends on its semicolon, which is no token here: its last token is the one before.
    const semicolon = Number.isFinite(end) && !this.endIndex.has(end) && this.oldSource[end - 1] === ';';
    const last =
      end === Number.POSITIVE_INFINITY ? this.before.length - 1 : this.lastTokenBefore(semicolon ? end - 1 : end);
    if (first === undefined || last === undefined || last < first) return undefined;
    if (!this.unchanged(first, last)) return undefined;
    let newEnd = (this.after[this.map[last] as number] as Token).end;
    if (semicolon) {
      if (this.newSource[newEnd] !== ';') return undefined;
      newEnd++;
    }
    return {
      start: positionOf(this.newStarts, (this.after[this.map[first] as number] as Token).start),
      end: positionOf(this.newStarts, newEnd),
    };
  }

  /** Whether every token from `first` to `last` kept its neighbours (nothing inserted between them either). */
  unchanged(first: number, last: number): boolean {
    for (let index = first; index <= last; index++) {
      const mapped = this.map[index] as number;
      if (mapped < 0) return false;
      if (index > first && mapped !== (this.map[index - 1] as number) + 1) return false;
    }
    return true;
  }

  wholeFileUnchanged(): boolean {
    return this.before.length === this.after.length && this.unchanged(0, this.before.length - 1);
  }

  oldOffset(position: Position): number {
    return offsetOf(this.oldStarts, position);
  }

  private lastTokenBefore(end: number): number | undefined {
    const exact = this.endIndex.get(end);
    if (exact !== undefined) return exact;
    // A test's range ends where the next test starts: its last token is the one before that start.
    const next = this.startIndex.get(end);
    return next === undefined ? undefined : next - 1;
  }
}

function tokenMap(fileName: string, oldSource: string, newSource: string): TokenMap | undefined {
  const before = tokensOf(oldSource, fileName);
  const after = tokensOf(newSource, fileName);
  const map = alignTokens(before, after);
  return map && new TokenMap(before, after, map, oldSource, newSource);
}

/**
 * Rewrites `report` (in place) to the current sources `read(file)` returns, moving what kept its
 * tokens and leaving out what did not. A file that is gone, or whose source is unchanged, is left as
 * it is: Stryker's own diff handles those.
 */
export function carryOver(report: IncrementalReport, read: (file: string) => string | undefined): CarryOverCount {
  const count: CarryOverCount = {
    files: 0,
    tokensChanged: [],
    mutantsMoved: 0,
    mutantsLeftOut: 0,
    testsMoved: 0,
    testsLeftOut: 0,
  };
  for (const [file, result] of Object.entries(report.files)) {
    const current = read(file);
    if (current === undefined || current === result.source) continue;
    const map = tokenMap(file, result.source, current);
    if (!map) continue;
    count.files++;
    if (!map.wholeFileUnchanged()) count.tokensChanged.push(file);
    const kept = [];
    for (const mutant of result.mutants) {
      const place = map.range(map.oldOffset(mutant.location.start), map.oldOffset(mutant.location.end));
      if (place) kept.push({ ...mutant, location: place });
      else count.mutantsLeftOut++;
    }
    count.mutantsMoved += kept.length;
    report.files[file] = { ...result, source: current, mutants: kept };
  }
  for (const [file, testFile] of Object.entries(report.testFiles ?? {})) {
    const current = read(file);
    if (current === undefined || testFile.source === undefined || current === testFile.source) continue;
    const map = tokenMap(file, testFile.source, current);
    if (!map) continue;
    count.files++;
    if (!map.wholeFileUnchanged()) count.tokensChanged.push(file);
    const kept = [];
    // As Stryker does: a test spans from its start to the next test's start (or the end of the file).
    const located = testFile.tests.flatMap((test) => (test.location ? [map.oldOffset(test.location.start)] : []));
    const starts = [...new Set(located)].sort((a, b) => a - b);
    for (const test of testFile.tests) {
      if (!test.location) {
        if (map.wholeFileUnchanged()) kept.push(test);
        else count.testsLeftOut++;
        continue;
      }
      const start = map.oldOffset(test.location.start);
      const end = starts.find((offset) => offset > start) ?? Number.POSITIVE_INFINITY;
      const place = map.range(start, end);
      if (place) kept.push({ ...test, location: { start: place.start } });
      else count.testsLeftOut++;
    }
    count.testsMoved += kept.length;
    report.testFiles![file] = { ...testFile, source: current, tests: kept };
  }
  return count;
}
