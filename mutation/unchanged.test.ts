// npm run mutation skips Stryker only when the incremental result answers the run whole: the same
// scope, every mutated file and test file as recorded, none added or gone.
import { describe, expect, it } from 'vitest';
import { type CurrentRun, quietTestFiles, type RecordedRun, whyRunAgain } from './unchanged.js';

const recorded: RecordedRun = {
  files: { 'src/a.ts': { source: 'a' } },
  testFiles: { 'tests/a.test.ts': { source: 'test a' } },
  config: { mutate: ['src/**/*.ts'], ignoreStatic: true },
};
const sources: Record<string, string> = { 'src/a.ts': 'a', 'tests/a.test.ts': 'test a', 'src/b.ts': 'b' };
const now = (change: Partial<CurrentRun> = {}, edits: Record<string, string | undefined> = {}): CurrentRun => ({
  mutated: ['src/a.ts'],
  tests: ['tests/a.test.ts'],
  config: { mutate: ['src/**/*.ts'], ignoreStatic: true },
  read: (file) => (file in edits ? edits[file] : sources[file]),
  ...change,
});

describe('whether the recorded mutation result answers the run whole', () => {
  it('does when nothing changed', () => {
    expect(whyRunAgain(recorded, now())).toBeUndefined();
  });

  it('does not when a mutated file or a test file changed', () => {
    expect(whyRunAgain(recorded, now({}, { 'src/a.ts': 'a2' }))).toBe('the mutated file src/a.ts changed');
    expect(whyRunAgain(recorded, now({}, { 'tests/a.test.ts': 'test a2' }))).toBe(
      'the test file tests/a.test.ts changed',
    );
  });

  it('does not when a file was added to the scope or the suites, or is gone', () => {
    expect(whyRunAgain(recorded, now({ mutated: ['src/a.ts', 'src/b.ts'] }))).toBe('the mutated file src/b.ts is new');
    expect(whyRunAgain(recorded, now({ tests: ['tests/a.test.ts', 'tests/b.test.ts'] }))).toBe(
      'the test file tests/b.test.ts is new',
    );
    expect(whyRunAgain(recorded, now({ tests: [] }))).toBe('the test file tests/a.test.ts is gone');
    expect(whyRunAgain(recorded, now({}, { 'src/a.ts': undefined }))).toBe('the mutated file src/a.ts changed');
  });

  it('does not when the scope changed', () => {
    expect(whyRunAgain(recorded, now({ config: { mutate: ['src/**/*.ts', '!src/b.ts'], ignoreStatic: true } }))).toBe(
      'the scope changed',
    );
    expect(whyRunAgain(recorded, now({ config: { mutate: ['src/**/*.ts'], ignoreStatic: false } }))).toBe(
      'the scope changed',
    );
  });

  it('does not when the recorded result kept no source of a test file', () => {
    expect(whyRunAgain({ ...recorded, testFiles: { 'tests/a.test.ts': {} } }, now())).toBe(
      'the test file tests/a.test.ts changed',
    );
  });
});

describe('the test files Stryker leaves out of its result', () => {
  it('are kept with their sources, and count as recorded while they stay the same', () => {
    const run = now({ tests: ['tests/a.test.ts', 'tests/quiet.test.ts'] }, { 'tests/quiet.test.ts': 'quiet' });
    const quiet = quietTestFiles(recorded, run.tests, run.read);
    expect(quiet).toEqual({ 'tests/quiet.test.ts': 'quiet' });
    expect(whyRunAgain({ ...recorded, quietTestFiles: quiet }, run)).toBeUndefined();
  });

  it('make the run go again when one of them changed', () => {
    const quiet = { 'tests/quiet.test.ts': 'quiet' };
    const run = now({ tests: ['tests/a.test.ts', 'tests/quiet.test.ts'] }, { 'tests/quiet.test.ts': 'louder' });
    expect(whyRunAgain({ ...recorded, quietTestFiles: quiet }, run)).toBe('the test file tests/quiet.test.ts changed');
  });
});
