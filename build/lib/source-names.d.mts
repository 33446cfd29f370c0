// Types of source-names.mjs.
export interface SourceBreak {
  impact: 'source';
  kind: 'renamed' | 'removed' | 'moved';
  at: string;
  messages: string[];
  from: string;
  to?: string;
}
export function schemaRefs(doc: unknown): Map<string, string>;
export function sourceBreaks(base: unknown, revision: unknown): SourceBreak[];
export function unlistedNames(breaks: Array<{ from: string }>, entry: string): string[];
export function changelogEntry(changelog: string, version: string): string;
