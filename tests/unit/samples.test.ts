// The reference's samples, cut from the partner programs: the markers a samples program must hold
// (one region per operation, well formed), the dedent that makes a region the sample a partner
// copies, the PARTNER_SAMPLES line the matrix reads, and the list of programs the docs quote,
// which must say what each row's `samples` says.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  commentOf,
  dedent,
  operationIdsOf,
  reportedStatuses,
  SAMPLE_PROGRAMS,
  sampleProgramOf,
  sampleRegions,
  samplesOf,
} from '../../build/lib/samples.mjs';
import {
  curlSamples,
  matrixTable,
  notRun,
  rows,
  sampleProgramProblems,
  type RowReport,
} from '../../partners/harness/index.js';
import { contract, repoRoot } from '../../testkit/contract.js';

const OPERATIONS = ['createThing', 'listThings'];
const program = (body: string) =>
  body
    .split('\n')
    .map((line) => line.replace(/^\s*\| ?/, ''))
    .join('\n');

describe('the sample regions of a program', () => {
  it('cuts each region between its markers, dedented, in file order, with its line', () => {
    const text = program(`
      |const client = make();
      |async function main() {
      |  // sample: createThing
      |  const created = await client.POST('/things', {
      |    body: { name: 'a' },
      |  });
      |
      |  console.log(created.data.id);
      |  // end sample
      |  //   sample:   listThings
      |  const page = await client.GET('/things');
      |  //end sample
      |}`);
    const { regions, problems } = sampleRegions(text, '//');
    expect(problems).toEqual([]);
    expect(regions).toEqual([
      {
        operationId: 'createThing',
        line: 4,
        source:
          "const created = await client.POST('/things', {\n  body: { name: 'a' },\n});\n\nconsole.log(created.data.id);",
      },
      { operationId: 'listThings', line: 11, source: "const page = await client.GET('/things');" },
    ]);
  });

  it('reads # markers in Python, Ruby, Perl and shell, and // elsewhere', () => {
    expect(['a.py', 'a.rb', 'a.pl', 'a.sh'].map(commentOf)).toEqual(['#', '#', '#', '#']);
    expect(['a.ts', 'A.java', 'A.kt', 'main.go', 'samples.rs', 'a.php', 'A.cs'].map(commentOf)).toEqual([
      '//',
      '//',
      '//',
      '//',
      '//',
      '//',
      '//',
    ]);
    const text =
      '    # sample: listThings\n    page = api.list_things()\n    # end sample\n    // sample: createThing\n';
    expect(sampleRegions(text, '#').regions).toEqual([
      { operationId: 'listThings', line: 1, source: 'page = api.list_things()' },
    ]);
  });

  it('names each marker out of place with its line', () => {
    const text = program(`
      |// end sample
      |// sample: createThing
      |call();
      |// sample: listThings
      |// end sample
      |// sample: 
      |// sample: listThings
      |call();`);
    expect(sampleRegions(text, '//').problems).toEqual([
      'line 2: an end of sample without its start',
      'line 5: a sample starts inside the sample of createThing (line 3), which has no end',
      'line 5: the sample of listThings is empty',
      'line 7: "// sample:" names no operationId',
      'line 8: the sample of listThings has no end',
    ]);
  });
});

describe('dedent', () => {
  it('removes the indentation all lines share, tabs included, and the blank lines around them', () => {
    expect(dedent(['', '\t\tif err != nil {', '\t\t\treturn err', '\t\t}', '   '])).toBe(
      'if err != nil {\n\treturn err\n}',
    );
    expect(dedent(['    a', '      b', '', '    c  '])).toBe('a\n  b\n\nc');
    expect(dedent(['  a', '\tb'])).toBe('  a\n\tb');
    expect(dedent([])).toBe('');
  });
});

describe('a program with exactly one sample per operation', () => {
  const marked = (ids: string[]) => ids.map((id) => `// sample: ${id}\ncall('${id}');\n// end sample`).join('\n');

  it('gives the sample of every operation', () => {
    const { samples, problems } = samplesOf(marked(OPERATIONS), '//', OPERATIONS);
    expect(problems).toEqual([]);
    expect(Object.fromEntries(samples)).toEqual({
      createThing: "call('createThing');",
      listThings: "call('listThings');",
    });
  });

  it('names an operation without a sample, one with two, and one the contract does not have', () => {
    const { samples, problems } = samplesOf(marked(['createThing', 'createThing', 'deleteThing']), '//', OPERATIONS);
    expect(problems).toEqual([
      'line 7: deleteThing is no operation of the contract',
      'createThing has 2 samples (lines 1, 4); it must have one',
      'no sample of listThings',
    ]);
    expect([...samples.keys()]).toEqual([]);
  });
});

describe('the PARTNER_SAMPLES line', () => {
  it('reads the statuses of the last line, and passes when every operation is 2xx', () => {
    const output =
      'created 1\nPARTNER_SAMPLES {"createThing": 500}\nPARTNER_SAMPLES {"createThing": 201, "listThings": 200}\n';
    expect(reportedStatuses(output, OPERATIONS)).toEqual({
      statuses: { createThing: 201, listThings: 200 },
      problems: [],
    });
  });

  it('names a missing line, a line that is not a JSON object, missing and unknown operations, and statuses not 2xx', () => {
    expect(reportedStatuses('done', OPERATIONS).problems).toEqual(['the program printed no PARTNER_SAMPLES line']);
    expect(reportedStatuses('PARTNER_SAMPLES {oops', OPERATIONS).problems[0]).toMatch(
      /^its PARTNER_SAMPLES line is not JSON/,
    );
    expect(reportedStatuses('PARTNER_SAMPLES [200]', OPERATIONS).problems).toEqual([
      'its PARTNER_SAMPLES line is not a JSON object',
    ]);
    expect(
      reportedStatuses('PARTNER_SAMPLES {"createThing": 400, "deleteThing": 200, "listThings": "200"}', OPERATIONS)
        .problems,
    ).toEqual([
      'statuses for deleteThing, which the contract does not have',
      'not 2xx: createThing 400, listThings "200"',
    ]);
    expect(reportedStatuses('PARTNER_SAMPLES {"listThings": 299}', OPERATIONS).problems).toEqual([
      'no status for createThing',
    ]);
  });

  it('fails a samples program on its markers and on its run, each problem named', () => {
    const text = '// sample: createThing\ncall();\n// end sample\n';
    expect(
      sampleProgramProblems(
        'partners/x/samples.ts',
        text,
        'PARTNER_SAMPLES {"createThing": 200, "listThings": 404}',
        OPERATIONS,
      ),
    ).toEqual(['partners/x/samples.ts: no sample of listThings', 'its run: not 2xx: listThings 404']);
    expect(
      sampleProgramProblems(
        'partners/x/samples.py',
        '# sample: createThing\nx\n# end sample\n# sample: listThings\ny\n# end sample',
        'PARTNER_SAMPLES {"createThing": 200, "listThings": 200}',
        OPERATIONS,
      ),
    ).toEqual([]);
  });
});

describe('the samples programs the reference quotes', () => {
  const operationIds = operationIdsOf(contract);

  it("are curl and one per row of the matrix, in the matrix's order, each as the row's own `samples` says", () => {
    expect(operationIds).toHaveLength(23);
    expect(SAMPLE_PROGRAMS.map((p) => p.id)).toEqual(['curl', ...rows.map((row) => row.id)]);
    expect(new Set(SAMPLE_PROGRAMS.map((p) => p.label)).size).toBe(SAMPLE_PROGRAMS.length);
    for (const row of rows) {
      const { file, label, lang } = row.samples;
      expect({ row: row.id, file, label, lang }).toEqual({ row: row.id, ...sampleProgramOf(row.id) });
    }
    expect(() => sampleProgramOf('cobol-openapi-generator')).toThrow(
      'No samples program is listed for cobol-openapi-generator',
    );
  });

  it("mark one call of every operation of the contract in the curl program and in each row's program", () => {
    for (const { file } of [curlSamples, ...rows.map((row) => row.samples)]) {
      const { problems } = samplesOf(readFileSync(path.join(repoRoot, file), 'utf8'), commentOf(file), operationIds);
      expect({ file, problems }).toEqual({ file, problems: [] });
    }
  });
});

describe('the matrix table', () => {
  const report = (over: Partial<RowReport>): RowReport => ({
    id: 'x',
    language: 'X',
    generator: 'gen',
    version: '1',
    document: '3.1',
    warnings: [],
    steps: notRun(),
    passed: true,
    ...over,
  });
  const ok = { ok: true, seconds: 2 };

  it("has a Samples column: the step's result, or – when it did not run, and a line for curl", () => {
    const table = matrixTable([
      report({
        id: 'curl',
        language: 'curl',
        generator: 'curl',
        version: '7.88.1',
        document: null,
        steps: { ...notRun(), samples: ok },
      }),
      report({ steps: { ...notRun(), toolchain: ok, generate: ok, compile: ok, flow: ok, webhook: ok, drill: ok } }),
      report({
        steps: {
          ...notRun(),
          toolchain: ok,
          generate: ok,
          compile: ok,
          flow: ok,
          webhook: ok,
          samples: { ok: false, seconds: 1, error: 'no sample of listThings' },
        },
      }),
    ]).split('\n');
    expect(table[0]).toBe(
      '| Language | Generator | Document | Warnings | Generate | Compile | Flow | Webhook | Samples | Drill | Defaults | Notes | Session type | Capture error type |',
    );
    expect(table[2]).toBe('| curl | curl 7.88.1 | – | 0 | – | – | – | – | ok (2 s) | – | – | – | – | – |');
    expect(table[3]).toBe(
      '| X | gen 1 | 3.1 | 0 | ok (2 s) | ok (2 s) | ok (2 s) | ok (2 s) | – | ok (2 s) | – | – | – | – |',
    );
    expect(table[4]).toContain('| ok (2 s) | FAILED | – |');
  });
});
