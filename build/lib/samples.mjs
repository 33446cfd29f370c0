// The reference's code samples, cut from the programs that the partner matrix runs. A samples
// program calls every operation of the contract once; each call stands between two marker lines,
// `<comment> sample: <operationId>` and `<comment> end sample`, where <comment> is the language's
// line comment. The marked region, dedented, is the operation's sample in that language. The
// matrix (scripts/partners) checks the markers with the same functions the docs build
// (build/docs) cuts the samples with, so the code a partner reads is the code the matrix ran.

/**
 * The samples programs, in the order of the reference's tabs: curl, then each row of the partner
 * matrix (`id` is the row's id, and the row's `samples` says the same file, label and lang).
 * `lang` is the highlighting Redoc applies.
 */
export const SAMPLE_PROGRAMS = [
  { id: 'curl', file: 'partners/curl/samples.sh', label: 'curl', lang: 'shell' },
  {
    id: 'typescript-openapi-fetch',
    file: 'partners/typescript/openapi-fetch/samples.ts',
    label: 'TypeScript (openapi-fetch)',
    lang: 'typescript',
  },
  {
    id: 'typescript-hey-api',
    file: 'partners/typescript/hey-api/samples.ts',
    label: 'TypeScript (hey-api)',
    lang: 'typescript',
  },
  {
    id: 'typescript-orval',
    file: 'partners/typescript/orval/samples.ts',
    label: 'TypeScript (Orval)',
    lang: 'typescript',
  },
  {
    id: 'python-openapi-python-client',
    file: 'partners/python/openapi-python-client/samples.py',
    label: 'Python (openapi-python-client)',
    lang: 'python',
  },
  {
    id: 'python-openapi-generator',
    file: 'partners/python/openapi-generator/samples.py',
    label: 'Python (openapi-generator)',
    lang: 'python',
  },
  {
    id: 'java-openapi-generator',
    file: 'partners/java/openapi-generator/Samples.java',
    label: 'Java (openapi-generator)',
    lang: 'java',
  },
  {
    id: 'kotlin-openapi-generator',
    file: 'partners/kotlin/openapi-generator/Samples.kt',
    label: 'Kotlin (openapi-generator)',
    lang: 'kotlin',
  },
  {
    id: 'go-oapi-codegen',
    file: 'partners/go/oapi-codegen/cmd/samples/main.go',
    label: 'Go (oapi-codegen)',
    lang: 'go',
  },
  {
    id: 'rust-openapi-generator',
    file: 'partners/rust/openapi-generator/src/bin/samples.rs',
    label: 'Rust (openapi-generator)',
    lang: 'rust',
  },
  {
    id: 'php-openapi-generator',
    file: 'partners/php/openapi-generator/samples.php',
    label: 'PHP (openapi-generator)',
    lang: 'php',
  },
  {
    id: 'ruby-openapi-generator',
    file: 'partners/ruby/openapi-generator/samples.rb',
    label: 'Ruby (openapi-generator)',
    lang: 'ruby',
  },
  {
    id: 'perl-openapi-client',
    file: 'partners/perl/openapi-client/samples.pl',
    label: 'Perl (OpenAPI::Client)',
    lang: 'perl',
  },
  {
    id: 'csharp-openapi-generator',
    file: 'partners/csharp/openapi-generator/Samples.cs',
    label: 'C# (openapi-generator)',
    lang: 'csharp',
  },
];

/** The entry of SAMPLE_PROGRAMS for a row id (or `curl`), without its id: what a row's `samples` spreads. */
export function sampleProgramOf(id) {
  const found = SAMPLE_PROGRAMS.find((program) => program.id === id);
  if (!found) throw new Error(`No samples program is listed for ${id} (build/lib/samples.mjs: SAMPLE_PROGRAMS)`);
  const { file, label, lang } = found;
  return { file, label, lang };
}

/** The line comment a program's markers use: `#` in Python, Ruby, Perl and shell; `//` elsewhere. */
export const commentOf = (file) => (/\.(py|rb|pl|sh)$/.test(file) ? '#' : '//');

/** Every operationId of a contract document, in the order of its paths. */
export function operationIdsOf(doc) {
  return Object.values(doc.paths ?? {}).flatMap((item) =>
    Object.values(item)
      .filter((op) => op && typeof op === 'object' && op.operationId)
      .map((op) => op.operationId),
  );
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * The marked regions of a program's text, in file order: `{ operationId, line, source }`, where
 * `line` is the 1-based line of the start marker and `source` the region's lines dedented, without
 * leading or trailing blank lines. `problems` names each marker out of place (an end without a
 * start, a start inside a region, a region never closed, an empty region), with its line.
 */
export function sampleRegions(text, comment) {
  const c = escapeRegExp(comment);
  const start = new RegExp(`^\\s*${c}\\s*sample:\\s*(\\S*)\\s*$`);
  const end = new RegExp(`^\\s*${c}\\s*end sample\\s*$`);
  const regions = [];
  const problems = [];
  let open = null;
  const close = () => {
    const source = dedent(open.lines);
    if (source === '') problems.push(`line ${open.line}: the sample of ${open.operationId} is empty`);
    else regions.push({ operationId: open.operationId, line: open.line, source });
    open = null;
  };
  text.split(/\r?\n/).forEach((lineText, index) => {
    const lineNumber = index + 1;
    const started = start.exec(lineText);
    if (started) {
      if (open) {
        problems.push(
          `line ${lineNumber}: a sample starts inside the sample of ${open.operationId} (line ${open.line}), which has no end`,
        );
        open = null;
      }
      if (!/^[A-Za-z][A-Za-z0-9]*$/.test(started[1]))
        problems.push(`line ${lineNumber}: "${lineText.trim()}" names no operationId`);
      else open = { operationId: started[1], line: lineNumber, lines: [] };
    } else if (end.test(lineText)) {
      if (open) close();
      else problems.push(`line ${lineNumber}: an end of sample without its start`);
    } else if (open) open.lines.push(lineText);
  });
  if (open) problems.push(`line ${open.line}: the sample of ${open.operationId} has no end`);
  return { regions, problems };
}

/** Lines without the leading whitespace they all share (spaces or tabs), and without blank lines around them. */
export function dedent(lines) {
  const trimmed = lines.map((line) => line.trimEnd());
  while (trimmed.length > 0 && trimmed[0] === '') trimmed.shift();
  while (trimmed.length > 0 && trimmed.at(-1) === '') trimmed.pop();
  const indents = trimmed.filter((line) => line !== '').map((line) => /^[ \t]*/.exec(line)[0]);
  let shared = indents[0] ?? '';
  for (const indent of indents) {
    let i = 0;
    while (i < shared.length && i < indent.length && shared[i] === indent[i]) i++;
    shared = shared.slice(0, i);
  }
  return trimmed.map((line) => line.slice(shared.length)).join('\n');
}

/**
 * The sample of each operation in a program's text, or the problems that keep it from having
 * exactly one marked region per operation of the contract: a marker out of place, an operation
 * without a sample, one with several, a sample of an operation the contract does not have.
 */
export function samplesOf(text, comment, operationIds) {
  const { regions, problems } = sampleRegions(text, comment);
  const known = new Set(operationIds);
  const byOperation = new Map();
  for (const region of regions) {
    if (!known.has(region.operationId))
      problems.push(`line ${region.line}: ${region.operationId} is no operation of the contract`);
    byOperation.set(region.operationId, [...(byOperation.get(region.operationId) ?? []), region]);
  }
  for (const [operationId, found] of byOperation) {
    if (found.length > 1)
      problems.push(
        `${operationId} has ${found.length} samples (lines ${found.map((r) => r.line).join(', ')}); it must have one`,
      );
  }
  const missing = operationIds.filter((id) => !byOperation.has(id));
  if (missing.length > 0) problems.push(`no sample of ${missing.join(', ')}`);
  const samples = new Map(
    operationIds.filter((id) => byOperation.get(id)?.length === 1).map((id) => [id, byOperation.get(id)[0].source]),
  );
  return { samples, problems };
}

/**
 * The statuses a samples program reports on its last `PARTNER_SAMPLES {…}` line, and what is wrong
 * with them: no such line, an operation missing, one the contract does not have, a status that is
 * not 2xx.
 */
export function reportedStatuses(output, operationIds) {
  const line = output
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('PARTNER_SAMPLES '))
    .at(-1);
  if (!line) return { statuses: {}, problems: ['the program printed no PARTNER_SAMPLES line'] };
  let statuses;
  try {
    statuses = JSON.parse(line.slice('PARTNER_SAMPLES '.length));
  } catch (error) {
    return { statuses: {}, problems: [`its PARTNER_SAMPLES line is not JSON: ${error.message}`] };
  }
  if (statuses === null || typeof statuses !== 'object' || Array.isArray(statuses))
    return { statuses: {}, problems: ['its PARTNER_SAMPLES line is not a JSON object'] };
  const problems = [];
  const missing = operationIds.filter((id) => !(id in statuses));
  if (missing.length > 0) problems.push(`no status for ${missing.join(', ')}`);
  const unknown = Object.keys(statuses).filter((id) => !operationIds.includes(id));
  if (unknown.length > 0) problems.push(`statuses for ${unknown.join(', ')}, which the contract does not have`);
  const failed = Object.entries(statuses).filter(
    ([, status]) => !(Number.isInteger(status) && status >= 200 && status < 300),
  );
  if (failed.length > 0)
    problems.push(`not 2xx: ${failed.map(([id, status]) => `${id} ${JSON.stringify(status)}`).join(', ')}`);
  return { statuses, problems };
}
