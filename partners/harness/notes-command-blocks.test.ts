// The partner matrix's notes step runs every command block of each row's NOTES.md from the folder
// its marker names (notes-step.ts). Which blocks are commands, and where each runs,
// is read here, without a toolchain: the step itself needs the rows' toolchains, so it runs in
// `npm run partners`, not in `npm test`.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { againstSandbox, notesBlocks, rowFolder } from './notes-blocks.js';
import { matrixTable, notRun, type RowReport } from './report.js';
import { rows } from './rows/index.js';
import { repoRoot } from '../../testkit/contract.js';

const fence = (language: string, text: string) => `\`\`\`${language}\n${text}\n\`\`\``;

describe('the command blocks of a NOTES.md', () => {
  it("are the sh, bash and shell blocks in order, each with its marker's folder and its text as written", () => {
    const markdown = [
      '# Row',
      '',
      '<!-- run from: partners/go/oapi-codegen -->',
      fence('sh', 'go build -o bin/ ./cmd/...\nbin/flow'),
      '',
      'Output:',
      fence('text', '$ not a command'),
      '',
      '<!-- run from: . -->',
      fence('bash', 'cd .partners/x'),
      '',
      fence('go', 'code, err := f()'),
      '',
      '<!-- run from: partners/perl/openapi-client/defaults -->',
      fence('shell', 'perl flow.pl'),
    ].join('\n');
    expect(notesBlocks(markdown)).toEqual([
      { line: 4, folder: 'partners/go/oapi-codegen', text: 'go build -o bin/ ./cmd/...\nbin/flow' },
      { line: 15, folder: '.', text: 'cd .partners/x' },
      { line: 24, folder: 'partners/perl/openapi-client/defaults', text: 'perl flow.pl' },
    ]);
  });

  it('refuses a command block whose folder is not named on the line right above it', () => {
    expect(() => notesBlocks(fence('sh', 'bin/flow'), 'x/NOTES.md')).toThrow(
      'x/NOTES.md:1: a command block without "<!-- run from: <folder> -->" on the line above it',
    );
    // A blank line between the marker and the block breaks the link.
    const apart = `<!-- run from: . -->\n\n${fence('sh', 'ls')}`;
    expect(() => notesBlocks(apart)).toThrow(/NOTES\.md:3: a command block without/);
  });

  it('refuses a folder outside the repository', () => {
    const marked = (folder: string) => `<!-- run from: ${folder} -->\n${fence('sh', 'ls')}`;
    expect(() => notesBlocks(marked('../elsewhere'))).toThrow(
      'NOTES.md:2: "../elsewhere" is not a folder inside the repository',
    );
    expect(() => notesBlocks(marked('/tmp'))).toThrow('"/tmp" is not a folder inside the repository');
  });

  it('refuses a block of no language, where a command would hide from the step', () => {
    expect(() => notesBlocks(fence('', 'openapi-generator-cli generate -o <dir>'))).toThrow(
      'NOTES.md:1: a block with no language (commands are ```sh, output ```text)',
    );
  });

  it('refuses a block that is never closed, and names every problem at once', () => {
    expect(() => notesBlocks(`${fence('', 'a')}\n\`\`\`sh\nls`)).toThrow(
      [
        'NOTES.md:1: a block with no language (commands are ```sh, output ```text)',
        'NOTES.md:4: the block is never closed',
      ].join('\n'),
    );
  });

  it('reads a longer fence to its own closing fence, and keeps a shorter fence inside it as text', () => {
    const markdown = ['<!-- run from: . -->', '````sh', 'cat <<EOF', '```', 'EOF', '````'].join('\n');
    expect(notesBlocks(markdown)).toEqual([{ line: 2, folder: '.', text: 'cat <<EOF\n```\nEOF' }]);
  });
});

describe('the row a NOTES.md belongs to', () => {
  it('is the folder partners/<language>/<generator> of the row id', () => {
    expect(rowFolder('go-oapi-codegen')).toBe('partners/go/oapi-codegen');
    expect(rowFolder('python-openapi-python-client')).toBe('partners/python/openapi-python-client');
    expect(() => rowFolder('curl')).toThrow('row id curl is not <language>-<generator>');
  });

  it('holds a NOTES.md for every row of the matrix', () => {
    for (const row of rows) {
      const notes = existsSync(path.join(repoRoot, rowFolder(row.id), 'NOTES.md'));
      expect({ row: row.id, notes }).toEqual({ row: row.id, notes: true });
    }
  });
});

describe("a block run against the matrix's sandbox", () => {
  it('changes only the address 127.0.0.1:4010, everywhere in the block', () => {
    const block = [
      'curl -sS -o openapi.json http://127.0.0.1:4010/openapi.json',
      'npx openapi-ts -i http://127.0.0.1:4010/openapi.json # 127.0.0.1:40100',
    ].join('\n');
    expect(againstSandbox(block, 'http://127.0.0.1:39123')).toBe(
      [
        'curl -sS -o openapi.json http://127.0.0.1:39123/openapi.json',
        'npx openapi-ts -i http://127.0.0.1:39123/openapi.json # 127.0.0.1:391230',
      ].join('\n'),
    );
  });
});

// C#'s NOTES.md is kept by the C# row's own work; every other row's blocks must read as the step runs them.
const CHECKED = rows.filter((row) => row.id !== 'csharp-openapi-generator');

describe.each(CHECKED.map((row) => [rowFolder(row.id)]))('%s/NOTES.md', (folder) => {
  const notes = `${folder}/NOTES.md`;
  const blocks = notesBlocks(readFileSync(path.join(repoRoot, notes), 'utf8'), notes);

  it('has command blocks, each run from a folder of the repository: its own, one of its own, or the root', () => {
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) {
      const where = new RegExp(`^(\\.|${folder}(/[\\w.-]+)*)$`);
      expect({ line: block.line, folder: block.folder }).toEqual({
        line: block.line,
        folder: expect.stringMatching(where),
      });
      expect(statSync(path.join(repoRoot, block.folder)).isDirectory()).toBe(true);
    }
  });

  it('starts no sandbox and reads nothing that only npm run partners builds', () => {
    // A block run from the root may build in a .partners/<name>/ folder of its own, never in the matrix's.
    const rowFolders = rows.flatMap((row) => [`.partners/${row.id}/`, `.partners/${row.id}-`]);
    const matrixFolders = ['.partners/cache', ...rowFolders];
    for (const block of blocks) {
      const reads = matrixFolders.filter((folder) => block.text.includes(folder));
      const startsSandbox = /^\s*npm start\b/m.test(block.text);
      expect({ line: block.line, startsSandbox, reads }).toEqual({ line: block.line, startsSandbox: false, reads: [] });
    }
  });
});

describe("the matrix table's Notes column", () => {
  const report = (notes: RowReport['steps']['notes']): RowReport => ({
    id: 'x',
    language: 'X',
    generator: 'gen',
    version: '1',
    document: '3.1',
    warnings: [],
    steps: { ...notRun(), notes },
    passed: true,
  });
  const cellOf = (r: RowReport) => matrixTable([r]).split('\n')[2]!.split(' | ').at(-3);

  it("follows Defaults, and gives the step's time, FAILED, or – when it did not run", () => {
    expect(matrixTable([report('not run')]).split('\n')[0]).toContain('| Defaults | Notes | Session type |');
    expect(cellOf(report({ ok: true, seconds: 41.6 }))).toBe('ok (42 s)');
    expect(cellOf(report({ ok: false, seconds: 3, error: 'NOTES.md:16 failed' }))).toBe('FAILED');
    expect(cellOf(report('not run'))).toBe('–');
  });
});
