// The incremental result of the mutation run is carried over a change that leaves a mutant's or a
// test's tokens as they were (a formatter's), and never over one that changes them.
import { describe, expect, it } from 'vitest';
import { carryOver, tokensOf, type IncrementalReport, type Position } from './carry-over.js';

/** The report's place of `text` in `source` (line and column from 1, the end just after it). */
function placeOf(source: string, text: string, from = 0): { start: Position; end: Position } {
  const offset = source.indexOf(text, from);
  if (offset < 0) throw new Error(`${text} is not in the source`);
  const at = (index: number): Position => {
    const before = source.slice(0, index).split('\n');
    return { line: before.length, column: (before.at(-1) as string).length + 1 };
  };
  return { start: at(offset), end: at(offset + text.length) };
}
const textAt = (source: string, { start, end }: { start: Position; end: Position }) => {
  const lines = source.split('\n');
  const offset = (p: Position) =>
    lines.slice(0, p.line - 1).reduce((sum, line) => sum + line.length + 1, 0) + p.column - 1;
  return source.slice(offset(start), offset(end));
};

const before = `export function total(items: number[], discount: number, shipping: number, handling: number): number {
  const label = 'the customer\\'s total';
  return items.reduce((sum, item) => sum + item, 0) - discount + shipping + handling;
}
`;
const formatted = `export function total(
  items: number[],
  discount: number,
  shipping: number,
  handling: number,
): number {
  const label = "the customer's total";
  return (
    items.reduce((sum, item) => sum + item, 0) - discount + shipping + handling
  );
}
`;

function reportOf(source: string, mutated: string[]): IncrementalReport {
  return {
    files: {
      'src/total.ts': {
        source,
        mutants: mutated.map((text) => ({ id: text, status: 'Killed', location: placeOf(source, text) })),
      },
    },
  };
}

describe('carrying the mutation result over a change', () => {
  it('moves each mutant whose tokens a formatter only re-spaced, re-quoted or gave a trailing comma', () => {
    const report = reportOf(before, ['sum + item', "'the customer\\'s total'", '- discount + shipping']);
    const count = carryOver(report, () => formatted);
    const result = report.files['src/total.ts']!;
    expect(result.source).toBe(formatted);
    expect(result.mutants.map((mutant) => textAt(formatted, mutant.location))).toEqual([
      'sum + item',
      '"the customer\'s total"',
      '- discount + shipping',
    ]);
    // The parentheses the formatter put around the returned expression are tokens: Stryker runs,
    // and reuses each mutant moved.
    expect(count).toMatchObject({ files: 1, tokensChanged: ['src/total.ts'], mutantsMoved: 3, mutantsLeftOut: 0 });
  });

  it('names no file when only spacing, quotes, semicolons and trailing commas changed', () => {
    const respaced = formatted.replace('return (\n    items', 'return items').replace('handling\n  );', 'handling;');
    const count = carryOver(reportOf(before, ['sum + item']), () => respaced);
    expect(count).toMatchObject({ files: 1, tokensChanged: [], mutantsMoved: 1 });
  });

  it('leaves out a mutant whose tokens changed, and one that something was inserted into', () => {
    const changed = formatted
      .replace('sum + item, 0', 'sum + item, 1')
      .replace('discount + shipping', 'discount + (shipping)');
    const report = reportOf(before, ['(sum, item) => sum + item', '- discount + shipping', 'handling: number']);
    const count = carryOver(report, () => changed);
    expect(report.files['src/total.ts']!.mutants.map((mutant) => textAt(changed, mutant.location))).toEqual([
      '(sum, item) => sum + item',
      'handling: number',
    ]);
    expect(count).toMatchObject({ tokensChanged: ['src/total.ts'], mutantsMoved: 2, mutantsLeftOut: 1 });
  });

  it('names a file that only gained code, every mutant kept: Stryker must run for the new code', () => {
    const grown = before.replace('  return items', '  if (discount > 100) throw new Error(label);\n  return items');
    const report = reportOf(before, ['sum + item', '- discount + shipping']);
    const count = carryOver(report, () => grown);
    expect(count).toMatchObject({ files: 1, tokensChanged: ['src/total.ts'], mutantsMoved: 2, mutantsLeftOut: 0 });
    expect(report.files['src/total.ts']!.source).toBe(grown);
  });

  it("moves a statement's mutant that ends on its semicolon, with the semicolon", () => {
    const report = reportOf(before, ["const label = 'the customer\\'s total';"]);
    carryOver(report, () => formatted);
    expect(textAt(formatted, report.files['src/total.ts']!.mutants[0]!.location)).toBe(
      'const label = "the customer\'s total";',
    );
  });

  it('leaves a file alone when its source did not change, or is gone', () => {
    const report = reportOf(before, ['sum + item']);
    const unchanged = structuredClone(report);
    expect(carryOver(report, () => before).files).toBe(0);
    expect(carryOver(report, () => undefined).files).toBe(0);
    expect(report).toEqual(unchanged);
  });

  describe('tests', () => {
    const tests = `describe('total', () => {
  it('adds', () => { expect(total([1, 2], 0, 0, 0)).toBe(3) });
  it('subtracts the discount', () => { expect(total([5], 2, 0, 0)).toBe(3) });
});
`;
    const testReport = (source: string): IncrementalReport => ({
      files: {},
      testFiles: {
        'tests/total.test.ts': {
          source,
          tests: [
            { id: '0', location: { start: placeOf(source, "it('adds'").start } },
            { id: '1', location: { start: placeOf(source, "it('subtracts").start } },
            { id: '2' },
          ],
        },
      },
    });

    it('moves a test whose tokens are unchanged to where it starts now', () => {
      const reformatted = tests.replace(
        '{ expect(total([1, 2], 0, 0, 0)).toBe(3) }',
        '{\n    expect(total([1, 2], 0, 0, 0)).toBe(3);\n  }',
      );
      const report = testReport(tests);
      expect(carryOver(report, () => reformatted).tokensChanged).toEqual([]);
      const moved = report.testFiles!['tests/total.test.ts']!.tests;
      expect(moved.map((test) => test.id)).toEqual(['0', '1', '2']);
      expect(moved[1]!.location!.start).toEqual(placeOf(reformatted, "it('subtracts").start);
    });

    it('leaves out a test whose body changed, and a test without a place once any token of its file changed', () => {
      const edited = tests.replace('total([5], 2, 0, 0)', 'total([5], 3, 0, 0)');
      const report = testReport(tests);
      const count = carryOver(report, () => edited);
      expect(report.testFiles!['tests/total.test.ts']!.tests.map((test) => test.id)).toEqual(['0']);
      expect(count).toMatchObject({ tokensChanged: ['tests/total.test.ts'], testsMoved: 1, testsLeftOut: 2 });
    });
  });
});

describe('the tokens compared', () => {
  it('leave out what a formatter may add or take away, and keep everything else', () => {
    const texts = (source: string) => tokensOf(source).map((token) => token.text);
    expect(texts("type A =\n  | 'a'\n  | 'b';\nf(x, y,);")).toEqual(texts('type A = "a" | "b"\nf(x, y)'));
    expect(texts('f(x, y)')).not.toEqual(texts('f(x)(y)'));
    expect(texts('a - b')).not.toEqual(texts('a + b'));
    expect(texts('(a + b) * c')).not.toEqual(texts('a + b * c'));
  });
});
