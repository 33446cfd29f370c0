// Types of evolution.mjs.
export interface EvolutionDocument {
  paths?: Record<string, Record<string, unknown>>;
  webhooks?: Record<string, Record<string, unknown>>;
  'x-webhooks'?: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, unknown>; responses?: Record<string, unknown>; parameters?: Record<string, unknown> };
}
export interface FoundEnum {
  at: string;
  kind: 'open' | 'extensible' | 'closed';
  values: unknown[];
  closedBecause?: string;
}
export interface EvolutionBreak {
  impact: 'major';
  kind: string;
  where: string;
  messages: string[];
}
export function schemaReach(doc: EvolutionDocument): { answers: Set<string>; requests: Set<string> };
export function subschemas(name: string, schema: unknown, at?: string): Generator<{ at: string; schema: Record<string, unknown> }>;
export function closedObjects(doc: EvolutionDocument, names: Iterable<string>): string[];
export function enumsIn(doc: EvolutionDocument, names: Iterable<string>): FoundEnum[];
export function nodeAt(doc: unknown, pointer: string): unknown;
export function evolutionBreaks(base: EvolutionDocument, revision: EvolutionDocument, renames?: Map<string, string>): EvolutionBreak[];
export function addsToOpenEnum(revision: EvolutionDocument, change: { verdicts?: Array<{ ruleId: string; location?: { pointer?: string } }> }): boolean;
