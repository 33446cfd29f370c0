// npm run mutation's verdict: the score per folder against its target, and every survivor either
// listed as equivalent (matched by its text) or reported.
import { describe, expect, it } from 'vitest';
import {
  mutationSummary,
  originalText,
  type EquivalentMutant,
  type MutationReport,
  type ReportMutant,
} from './score.js';

const SOURCE = 'export const late = (age: number) => age > 300;\nexport const name = "v0";\n';

/** A mutant of SOURCE's first line, replacing `>` (columns 42–43). */
const mutant = (status: string, replacement = '>='): ReportMutant => ({
  mutatorName: 'EqualityOperator',
  replacement,
  status,
  location: { start: { line: 1, column: 42 }, end: { line: 1, column: 43 } },
});

const report = (file: string, mutants: ReportMutant[]): MutationReport => ({
  files: { [file]: { source: SOURCE, mutants } },
});

const equivalent = (file: string, replacement = '>='): EquivalentMutant => ({
  file,
  mutator: 'EqualityOperator',
  original: '>',
  replacement,
  reason: 'test',
});

describe('mutationSummary', () => {
  it('quotes the source text a mutant replaces', () => {
    expect(originalText(SOURCE, mutant('Survived').location)).toBe('>');
    expect(originalText(SOURCE, { start: { line: 2, column: 21 }, end: { line: 2, column: 25 } })).toBe('"v0"');
  });

  it('scores killed and timed-out mutants against those the tests could notice', () => {
    const mutants = [...Array(8).fill(mutant('Killed')), mutant('Timeout'), mutant('Survived')];
    const [domain] = mutationSummary(report('/tmp/x/src/sandbox/domain/late.ts', mutants), []).folders;
    expect(domain).toMatchObject({
      folder: 'src/sandbox/domain',
      target: 90,
      killed: 9,
      survived: 1,
      score: 90,
      met: true,
    });
  });

  it('misses a target by one mutant, and reports it with its file, line and text', () => {
    const mutants = [...Array(7).fill(mutant('Killed')), mutant('Survived'), mutant('NoCoverage', '<')];
    const summary = mutationSummary(report('src/webhooks/late.ts', mutants), []);
    expect(summary.folders[0]).toMatchObject({
      folder: 'src/webhooks',
      killed: 7,
      survived: 1,
      noCoverage: 1,
      met: false,
    });
    expect(summary.folders[0]!.score).toBeCloseTo(77.8, 1);
    expect(summary.unexplained).toEqual([
      { file: 'src/webhooks/late.ts', line: 1, mutator: 'EqualityOperator', original: '>', replacement: '>=' },
      { file: 'src/webhooks/late.ts', line: 1, mutator: 'EqualityOperator', original: '>', replacement: '<' },
    ]);
  });

  it('leaves a listed equivalent out of the score, and only the one whose replacement matches', () => {
    const mutants = [
      mutant('Killed'),
      mutant('Killed'),
      mutant('Killed'),
      mutant('Killed'),
      mutant('Survived'),
      mutant('Survived', '<'),
    ];
    const summary = mutationSummary(report('src/client/late.ts', mutants), [equivalent('src/client/late.ts')]);
    expect(summary.folders[0]).toMatchObject({ killed: 4, survived: 1, equivalent: 1, score: 80, met: true });
    expect(summary.unexplained.map((m) => m.replacement)).toEqual(['<']);
    expect(summary.staleEquivalents).toEqual([]);
  });

  it('reports a listed equivalent that a test now kills as stale, but not one of a file this run left out', () => {
    const summary = mutationSummary(report('src/client/late.ts', [mutant('Killed')]), [
      equivalent('src/client/late.ts'),
      equivalent('src/client/other.ts'),
    ]);
    expect(summary.staleEquivalents).toEqual([equivalent('src/client/late.ts')]);
  });

  it('counts static mutants, which are not run, apart from the score', () => {
    const summary = mutationSummary(
      report('src/sandbox/delivery/late.ts', [mutant('Killed'), mutant('Ignored'), mutant('Ignored')]),
      [],
    );
    expect(summary.folders[0]).toMatchObject({ killed: 1, ignored: 2, score: 100, met: true });
    expect(summary.unexplained).toEqual([]);
  });

  it('says nothing of a folder outside the targets, or of one this run did not reach', () => {
    const summary = mutationSummary(report('src/sandbox/server.ts', [mutant('Survived')]), []);
    expect(summary.folders).toEqual([]);
    expect(summary.unexplained).toEqual([]);
  });
});
