// The score of a Stryker JSON report (mutation-testing-report-schema) per folder, against the
// targets of the project: 90 % in the domain's rules and the webhook helpers, 80 % elsewhere.
// A mutant listed as equivalent (it changes no behaviour any caller could see) counts for neither.

export interface ReportMutant {
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}
export interface MutationReport {
  files: Record<string, { source: string; mutants: ReportMutant[] }>;
}
/** A surviving mutant that no test can kill, and why: matched by its text, not its line, so that it survives edits around it. */
export interface EquivalentMutant {
  file: string;
  mutator: string;
  original: string;
  replacement: string;
  reason: string;
}
export interface Survivor {
  file: string;
  line: number;
  mutator: string;
  original: string;
  replacement: string;
}

export const FOLDER_TARGETS: ReadonlyArray<{ folder: string; target: number }> = [
  { folder: 'src/sandbox/domain', target: 90 },
  { folder: 'src/webhooks', target: 90 },
  { folder: 'src/sandbox/delivery', target: 80 },
  { folder: 'src/client', target: 80 },
  // Before its parent: a mutant counts in the first folder that holds it.
  { folder: 'src/sandbox/store/postgres', target: 80 },
  { folder: 'src/sandbox/store', target: 80 },
  // What stands between a hostile page or client and a payment: held as strictly as the domain.
  { folder: 'src/sandbox/checkout', target: 90 },
  { folder: 'src/sandbox/http', target: 90 },
  // Who may call, and how often: held as strictly as what stands before a payment.
  { folder: 'src/sandbox/keys', target: 90 },
];

export const equivalentKey = (m: Pick<EquivalentMutant, 'file' | 'mutator' | 'original' | 'replacement'>) =>
  `${m.file} ${m.mutator}: ${JSON.stringify(m.original)} → ${JSON.stringify(m.replacement)}`;

/** The source text a mutant replaces (lines and columns are 1-based, the end exclusive). */
export function originalText(source: string, location: ReportMutant['location']): string {
  const lines = source.split('\n');
  const offset = (p: { line: number; column: number }) =>
    lines.slice(0, p.line - 1).reduce((sum, l) => sum + l.length + 1, 0) + p.column - 1;
  return source.slice(offset(location.start), offset(location.end));
}

const NOTICED = new Set(['Killed', 'Timeout']);
/** Stryker's status for a mutant it did not run: here, the static ones (stryker.config.mjs, ignoreStatic). */
const NOT_RUN = 'Ignored';

export function mutationSummary(report: MutationReport, equivalents: EquivalentMutant[]) {
  const listed = new Map(equivalents.map((e) => [equivalentKey(e), e]));
  const matched = new Set<string>();
  const unexplained: Survivor[] = [];
  const folders = FOLDER_TARGETS.map(({ folder, target }) => ({
    folder,
    target,
    killed: 0,
    survived: 0,
    noCoverage: 0,
    equivalent: 0,
    ignored: 0,
    score: 100,
    met: true,
  }));
  const reported = new Set<string>();
  for (const [file, { source, mutants }] of Object.entries(report.files)) {
    const relative = file.replace(/\\/g, '/').replace(/^.*?(?=src\/)/, '');
    reported.add(relative);
    const folder = folders.find((f) => relative.startsWith(`${f.folder}/`));
    if (!folder) continue;
    for (const mutant of mutants) {
      if (NOTICED.has(mutant.status)) folder.killed++;
      if (mutant.status === NOT_RUN) folder.ignored++;
      if (mutant.status !== 'Survived' && mutant.status !== 'NoCoverage') continue;
      const survivor = {
        file: relative,
        line: mutant.location.start.line,
        mutator: mutant.mutatorName,
        original: originalText(source, mutant.location),
        replacement: mutant.replacement ?? '',
      };
      const key = equivalentKey(survivor);
      if (listed.has(key)) {
        matched.add(key);
        folder.equivalent++;
        continue;
      }
      if (mutant.status === 'Survived') folder.survived++;
      else folder.noCoverage++;
      unexplained.push(survivor);
    }
  }
  for (const folder of folders) {
    const counted = folder.killed + folder.survived + folder.noCoverage;
    folder.score = counted === 0 ? 100 : (100 * folder.killed) / counted;
    folder.met = folder.score >= folder.target;
  }
  // A run of some files (--mutate) says nothing of the others' folders or equivalents.
  return {
    folders: folders.filter((f) => f.killed + f.survived + f.noCoverage + f.equivalent + f.ignored > 0),
    unexplained,
    staleEquivalents: equivalents.filter((e) => reported.has(e.file) && !matched.has(equivalentKey(e))),
  };
}
