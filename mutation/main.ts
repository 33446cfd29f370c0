// npm run mutation: Stryker on the service's rules (stryker.config.mjs), incrementally: only the
// mutants of code or tests changed since reports/mutation/stryker-incremental.json are run again.
// Then the score per folder against its target, and every surviving mutant that
// mutation/equivalent-mutants.json does not list with its reason. Exits 1 when a folder
// misses its target or a survivor is unexplained. Arguments are Stryker's (--force runs all).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../testkit/contract.js';
import { equivalentKey, mutationSummary, type EquivalentMutant, type MutationReport } from './score.js';

const stryker = spawnSync(path.join(repoRoot, 'node_modules', '.bin', 'stryker'), ['run', ...process.argv.slice(2)], { cwd: repoRoot, stdio: 'inherit' });
if (stryker.status !== 0) process.exit(stryker.status ?? 1);

const report = JSON.parse(readFileSync(path.join(repoRoot, 'reports', 'mutation', 'mutation.json'), 'utf8')) as MutationReport;
const equivalentsFile = path.join(repoRoot, 'mutation', 'equivalent-mutants.json');
const equivalents = JSON.parse(readFileSync(equivalentsFile, 'utf8')) as EquivalentMutant[];
const summary = mutationSummary(report, equivalents);

console.log('\nMutation score per folder (killed and timed out, of every mutant the tests could notice; equivalents and static mutants, which are not run, left out):\n');
console.log(`${'folder'.padEnd(26)}${'score'.padStart(8)}${'target'.padStart(8)}${'killed'.padStart(8)}${'survived'.padStart(10)}${'no test'.padStart(9)}${'equivalent'.padStart(12)}${'static'.padStart(8)}  result`);
for (const folder of summary.folders) {
  console.log(`${folder.folder.padEnd(26)}${`${folder.score.toFixed(1)} %`.padStart(8)}${`${folder.target} %`.padStart(8)}${String(folder.killed).padStart(8)}${String(folder.survived).padStart(10)}${String(folder.noCoverage).padStart(9)}${String(folder.equivalent).padStart(12)}${String(folder.ignored).padStart(8)}  ${folder.met ? 'met' : 'MISSED'}`);
}
if (summary.unexplained.length > 0) {
  const listed = path.relative(repoRoot, equivalentsFile);
  console.log(`\n${summary.unexplained.length} surviving mutants, neither killed by a test nor listed in ${listed}:`);
  for (const m of summary.unexplained) console.log(`  ${m.file}:${m.line} ${m.mutator}: ${JSON.stringify(m.original)} → ${JSON.stringify(m.replacement)}`);
}
if (summary.staleEquivalents.length > 0) {
  console.log(`\nListed as equivalent but no longer surviving (remove them): ${summary.staleEquivalents.map(equivalentKey).join('; ')}`);
}
console.log(`\nReports: reports/mutation/index.html, reports/mutation/mutation.json`);
process.exit(summary.folders.every((f) => f.met) && summary.unexplained.length === 0 && summary.staleEquivalents.length === 0 ? 0 : 1);
