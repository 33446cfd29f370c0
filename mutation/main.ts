// npm run mutation: Stryker on the service's rules (stryker.config.mjs), incrementally: only the
// mutants of code or tests changed since reports/mutation/stryker-incremental.json are run again.
// Then the score per folder against its target, and every surviving mutant that
// mutation/equivalent-mutants.json does not list with its reason. Exits 1 when a folder
// misses its target or a survivor is unexplained. Arguments are Stryker's (--force runs all).
// Before Stryker, the incremental result is carried over changes that kept the tokens of a mutant
// or a test (carry-over.ts), such as the formatter's.
import { spawnSync } from 'node:child_process';
import { existsSync, globSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PartialStrykerOptions } from '@stryker-mutator/api/core';
import { repoRoot } from '../testkit/contract.js';
import { carryOver, type IncrementalReport } from './carry-over.js';
import { quietTestFiles, type RecordedRun, whyRunAgain } from './unchanged.js';
import { MUTATION_TEST_FILES } from '../vitest.mutation.config.js';
import { equivalentKey, mutationSummary, type EquivalentMutant, type MutationReport } from './score.js';

const strykerConfig = (await import(pathToFileURL(path.join(repoRoot, 'stryker.config.mjs')).href))
  .default as PartialStrykerOptions;
const incrementalFile = path.join(repoRoot, 'reports', 'mutation', 'stryker-incremental.json');
// Beside Stryker's result, the test files it leaves out (their tests reach no mutant), as they were.
const quietFile = path.join(repoRoot, 'reports', 'mutation', 'quiet-test-files.json');
const mutationTests = () => filesOf(MUTATION_TEST_FILES);
const read = (file: string) => {
  const absolute = path.join(repoRoot, file);
  return existsSync(absolute) ? readFileSync(absolute, 'utf8') : undefined;
};
const force = process.argv.includes('--force');
let reportFile = path.join(repoRoot, 'reports', 'mutation', 'mutation.json');
if (!force && existsSync(incrementalFile)) {
  const incremental = JSON.parse(readFileSync(incrementalFile, 'utf8')) as IncrementalReport & RecordedRun;
  if (existsSync(quietFile)) incremental.quietTestFiles = JSON.parse(readFileSync(quietFile, 'utf8'));
  const count = carryOver(incremental, read);
  if (count.files > 0) {
    writeFileSync(incrementalFile, JSON.stringify(incremental));
    console.log(
      `Carried the incremental result over ${count.files} changed files: ` +
        `${count.mutantsMoved} mutants and ${count.testsMoved} tests whose tokens stayed moved to their new places; ` +
        `${count.mutantsLeftOut} mutants and ${count.testsLeftOut} tests changed, which Stryker runs as new.`,
    );
  }
  // The carried result holds the current sources, so a file whose tokens changed would look
  // unchanged below: its mutants of new code, which no result holds, would never run.
  const changed = count.tokensChanged[0];
  const why =
    changed !== undefined
      ? `the code of ${changed} changed`
      : whyRunAgain(incremental, {
          mutated: filesOf(strykerConfig.mutate as string[]),
          tests: mutationTests(),
          config: strykerConfig,
          read,
        });
  if (why === undefined && process.argv.length === 2) {
    console.log(
      'Nothing the mutants or their tests consist of changed since the incremental result: ' +
        'its results are reused whole, and Stryker does not run.',
    );
    reportFile = incrementalFile;
  } else if (why !== undefined) console.log(`Stryker runs, incrementally: ${why}.`);
}
if (reportFile !== incrementalFile) {
  const stryker = spawnSync(path.join(repoRoot, 'node_modules', '.bin', 'stryker'), ['run', ...process.argv.slice(2)], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  if (stryker.status !== 0) process.exit(stryker.status ?? 1);
  const written = JSON.parse(readFileSync(incrementalFile, 'utf8')) as RecordedRun;
  writeFileSync(quietFile, `${JSON.stringify(quietTestFiles(written, mutationTests(), read), null, 2)}\n`);
}

/** The files that glob patterns name from the repository's root, `!pattern` taking some away. */
function filesOf(patterns: string[]): string[] {
  const expand = (wanted: string[]) => (wanted.length ? globSync(wanted, { cwd: repoRoot }) : []);
  const excluded = new Set(expand(patterns.filter((p) => p.startsWith('!')).map((p) => p.slice(1))));
  return expand(patterns.filter((p) => !p.startsWith('!')))
    .filter((file) => !excluded.has(file))
    .sort();
}

const report = JSON.parse(readFileSync(reportFile, 'utf8')) as MutationReport;
const equivalentsFile = path.join(repoRoot, 'mutation', 'equivalent-mutants.json');
const equivalents = JSON.parse(readFileSync(equivalentsFile, 'utf8')) as EquivalentMutant[];
const summary = mutationSummary(report, equivalents);

console.log(
  '\nMutation score per folder (killed and timed out, of every mutant the tests could notice; equivalents and static mutants, which are not run, left out):\n',
);
console.log(
  `${'folder'.padEnd(26)}${'score'.padStart(8)}${'target'.padStart(8)}${'killed'.padStart(8)}${'survived'.padStart(10)}${'no test'.padStart(9)}${'equivalent'.padStart(12)}${'static'.padStart(8)}  result`,
);
for (const folder of summary.folders) {
  console.log(
    `${folder.folder.padEnd(26)}${`${folder.score.toFixed(1)} %`.padStart(8)}${`${folder.target} %`.padStart(8)}${String(folder.killed).padStart(8)}${String(folder.survived).padStart(10)}${String(folder.noCoverage).padStart(9)}${String(folder.equivalent).padStart(12)}${String(folder.ignored).padStart(8)}  ${folder.met ? 'met' : 'MISSED'}`,
  );
}
if (summary.unexplained.length > 0) {
  const listed = path.relative(repoRoot, equivalentsFile);
  console.log(`\n${summary.unexplained.length} surviving mutants, neither killed by a test nor listed in ${listed}:`);
  for (const m of summary.unexplained)
    console.log(`  ${m.file}:${m.line} ${m.mutator}: ${JSON.stringify(m.original)} → ${JSON.stringify(m.replacement)}`);
}
if (summary.staleEquivalents.length > 0) {
  console.log(
    `\nListed as equivalent but no longer surviving (remove them): ${summary.staleEquivalents.map(equivalentKey).join('; ')}`,
  );
}
console.log(`\nReports: reports/mutation/index.html, reports/mutation/mutation.json`);
process.exit(
  summary.folders.every((f) => f.met) && summary.unexplained.length === 0 && summary.staleEquivalents.length === 0
    ? 0
    : 1,
);
