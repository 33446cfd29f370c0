// Types of samples.mjs.
export interface SampleProgramEntry {
  /** A row's id, or `curl`. */
  id: string;
  /** The program's path in the repository. */
  file: string;
  /** The tab's label in the reference. */
  label: string;
  /** Redoc's highlighting. */
  lang: string;
}
export interface SampleRegion {
  operationId: string;
  /** The 1-based line of the start marker. */
  line: number;
  source: string;
}
export const SAMPLE_PROGRAMS: SampleProgramEntry[];
export function sampleProgramOf(id: string): Omit<SampleProgramEntry, 'id'>;
export function commentOf(file: string): '#' | '//';
export function operationIdsOf(doc: unknown): string[];
export function sampleRegions(text: string, comment: string): { regions: SampleRegion[]; problems: string[] };
export function dedent(lines: string[]): string;
export function samplesOf(
  text: string,
  comment: string,
  operationIds: string[],
): { samples: Map<string, string>; problems: string[] };
export function reportedStatuses(
  output: string,
  operationIds: string[],
): { statuses: Record<string, unknown>; problems: string[] };
