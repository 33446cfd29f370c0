// Generated names are an interface too. Generators name a client's types, enums and constants after
// the component schemas (`PaymentSessionKind.AUTHORIZATION`, `RefundReason`), so a schema renamed or
// removed, or a field pointed at another named schema, leaves the wire as it was and still breaks
// every partner's build that names the old type. redocly diff rates a renamed schema patch; the
// breaking-change gate (build/diff.mjs) reports these with this module, as source breaks, a class
// of their own beside the wire's major, minor and patch.

/** A node of a document, read as JSON: the walks below check each one's shape before they read it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
// biome-ignore lint/suspicious/noExplicitAny: a node of a JSON document, read where the walk knows its keyword
type Json = any;
type JsonObject = Record<string, Json>;

export interface SourceBreak {
  impact: 'source';
  kind: 'renamed' | 'removed' | 'moved';
  at: string;
  messages: string[];
  from: string;
  to?: string;
}

const isNode = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const SCHEMA_REF = /^#\/components\/schemas\/([^/]+)$/;
const unescapePointer = (segment: string) => segment.replaceAll('~1', '/').replaceAll('~0', '~');

/** Every `$ref` to a component schema: a Map from the pointer of the node that holds it to the schema's name. */
export function schemaRefs(doc: unknown): Map<string, string> {
  const refs = new Map<string, string>();
  const walk = (node: unknown, at: string): void => {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) walk(item, `${at}/${i}`);
      return;
    }
    if (!isNode(node)) return;
    const found = typeof node.$ref === 'string' ? SCHEMA_REF.exec(node.$ref) : null;
    if (found) refs.set(at, unescapePointer(found[1] as string));
    for (const [key, value] of Object.entries(node)) {
      // Examples are data: a `$ref` inside one names nothing a generator reads.
      if (key === 'example' || key === 'examples') continue;
      walk(value, `${at}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
    }
  };
  walk(doc, '#');
  return refs;
}

// The schema a removed name became: the one name (new in the revision) that every place which
// referenced it names now, or else a new schema written exactly as it was.
type Context = {
  base: Json;
  revision: Json;
  baseRefs: Map<string, string>;
  revisionRefs: Map<string, string>;
  added: Set<string>;
};

function successor(name: string, { base, revision, baseRefs, revisionRefs, added }: Context): string | undefined {
  const names = new Set<string | undefined>();
  for (const [at, target] of baseRefs) if (target === name && revisionRefs.has(at)) names.add(revisionRefs.get(at));
  const [only] = names;
  if (names.size === 1 && only !== undefined && added.has(only)) return only;
  const before = JSON.stringify(base.components.schemas[name]);
  return [...added].find((candidate) => JSON.stringify(revision.components.schemas[candidate]) === before);
}

const change = (kind: SourceBreak['kind'], at: string, message: string) => ({
  impact: 'source' as const,
  kind,
  at,
  messages: [message],
});

/**
 * The source breaks between two versions of the contract, in the gate's change shape with the
 * JSON pointer of the place instead of its reader's text, `{ impact: 'source', kind, at, messages, from, to? }`:
 * - a component schema renamed (`schema-renamed`, `from` and `to`) or removed (`schema-removed`, `from`);
 * - a place that named a schema which still exists names another one now, or an inline schema
 *   (`schema-ref-moved`, `from` and `to`): the type a generated client gives it changed name.
 */
export function sourceBreaks(base: Json, revision: Json): SourceBreak[] {
  const baseSchemas = base.components?.schemas ?? {};
  const revisionSchemas = revision.components?.schemas ?? {};
  const added = new Set(Object.keys(revisionSchemas).filter((name) => !(name in baseSchemas)));
  const baseRefs = schemaRefs(base);
  const revisionRefs = schemaRefs(revision);
  const context = { base, revision, baseRefs, revisionRefs, added };
  const breaks: SourceBreak[] = [];
  for (const name of Object.keys(baseSchemas)) {
    if (name in revisionSchemas) continue;
    const to = successor(name, context);
    const at = `#/components/schemas/${name}`;
    const renamed =
      `Schema ${name} is renamed ${to}: generated code names ${to} and its members where it named ` +
      `${name}, so partners' code that names ${name} no longer builds (schema-renamed).`;
    const removed =
      `Schema ${name} is removed: generated code has no type ${name} any more, so partners' code that ` +
      'names it no longer builds (schema-removed).';
    breaks.push(
      to ? { ...change('renamed', at, renamed), from: name, to } : { ...change('removed', at, removed), from: name },
    );
  }
  for (const [at, from] of baseRefs) {
    if (!(from in revisionSchemas)) continue;
    const to = revisionRefs.get(at);
    if (to === from || (to === undefined && !inlines(revision, revisionRefs, at, from))) continue;
    const now = to ?? 'an inline schema';
    const parameter = /\/parameters\/\d+(?=\/)/.exec(at);
    const place = parameter
      ? `The parameter \`${pointed(revision, at.slice(0, parameter.index + parameter[0].length))?.name}\``
      : 'This place';
    const moved =
      `${place} named ${from} and names ${now} now: generated code types it ` +
      `${to ?? 'with a name of its own'} instead of ${from}, so partners' code that passes or reads a ${from} here ` +
      'no longer builds (schema-ref-moved).';
    breaks.push({ ...change('moved', at, moved), from, to: now });
  }
  return breaks;
}

/** The node a JSON pointer names, without following references. */
function pointed(doc: unknown, pointer: string): Json {
  let node: Json = doc;
  for (const segment of pointer.replace(/^#\/?/, '').split('/').filter(Boolean))
    node = node?.[unescapePointer(segment)];
  return node;
}

// Whether the place at `at` holds an inline schema now, one that does not name `from` inside it: a
// nullable `anyOf: [{$ref: from}, {type: 'null'}]` still types the field `from`, so it moved nothing.
function inlines(revision: Json, revisionRefs: Map<string, string>, at: string, from: string): boolean {
  if (!isNode(pointed(revision, at))) return false;
  return ![...revisionRefs].some(([inner, target]) => target === from && inner.startsWith(`${at}/`));
}

/**
 * The old names of the source breaks that a changelog entry does not mention in backticks
 * (`` `PaymentSessionKind` ``): each rename, removal and move is to be listed for partners.
 */
export function unlistedNames(breaks: Array<{ from: string }>, entry: string): string[] {
  const names = new Set(breaks.map((b) => b.from));
  return [...names].filter((name) => !entry.includes(`\`${name}\``));
}

/** The text under a changelog's `## <version>` heading, up to the next `## ` heading ('' when it has none). */
export function changelogEntry(changelog: string, version: string): string {
  const escaped = version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const found = new RegExp(`^##\\s+\\[?${escaped}\\]?(?:\\s.*)?$`, 'm').exec(changelog);
  if (!found) return '';
  const rest = changelog.slice(found.index + found[0].length);
  const next = /^## /m.exec(rest);
  return next ? rest.slice(0, next.index) : rest;
}
