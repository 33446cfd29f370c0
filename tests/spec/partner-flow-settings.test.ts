// The partner programs run as copied: each flow program (the one `npm run partners` compiles and
// runs in each row) reads PARTNER_BASE_URL, PARTNER_API_KEY and PARTNER_RUN with the local
// sandbox's defaults, and says in one line what is wrong with a value (an address that is not
// http(s), a run name that cannot go into an email, a refused key, nothing answering); and each
// row's NOTES.md lists the variables with those defaults. The matrix runs the programs with the
// variables set; running them without any, against a sandbox on 127.0.0.1:4010, is a manual check
// (this file keeps the programs and their notes saying the same thing).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../testkit/contract.js';

/** Each row's flow program, and the file that reads its settings when another one does. */
const FLOWS: Record<string, string[]> = {
  'csharp/openapi-generator': ['Flow.cs'],
  'go/oapi-codegen': ['cmd/flow/main.go'],
  'java/openapi-generator': ['Flow.java'],
  'kotlin/openapi-generator': ['Flow.kt'],
  'perl/openapi-client': ['flow.pl'],
  'php/openapi-generator': ['flow.php'],
  'python/openapi-generator': ['flow.py'],
  'python/openapi-python-client': ['flow.py'],
  'ruby/openapi-generator': ['flow.rb'],
  'rust/openapi-generator': ['src/bin/flow.rs'],
  'typescript/hey-api': ['flow.ts'],
  'typescript/openapi-fetch': ['flow.ts'],
  'typescript/orval': ['flow.ts', 'service-fetch.ts'],
};

const read = (row: string, file: string) => readFileSync(path.join(repoRoot, 'partners', row, file), 'utf8');

describe('the partner flow programs', () => {
  it('are every row of partners/ that has a flow program', () => {
    for (const row of Object.keys(FLOWS))
      expect({ row, exists: existsSync(path.join(repoRoot, 'partners', row, FLOWS[row]![0]!)) }).toEqual({
        row,
        exists: true,
      });
  });

  it.each(Object.keys(FLOWS))(
    "%s: reads the three variables with the local sandbox's defaults, and names a wrong value in one line",
    (row) => {
      const source = FLOWS[row]!.map((file) => read(row, file)).join('\n');
      for (const variable of ['PARTNER_BASE_URL', 'PARTNER_API_KEY', 'PARTNER_RUN']) expect(source).toContain(variable);
      expect(source).toContain('http://127.0.0.1:4010');
      expect(source).toContain('sandbox-dev-key');
      // PARTNER_RUN defaults to the time in base 36.
      expect(source).toMatch(/36/);
      expect(source).toContain('is not an http(s) URL');
      expect(source).toContain('is not 1 to 64 letters, digits, - or _');
      expect(source).toContain('PARTNER_API_KEY was refused (401): ');
      expect(source).toContain('is the sandbox running (npm start)?');
      // No variable is read without its default any more (the crash of a copied program).
      expect(source).not.toMatch(
        /os\.environ\["PARTNER_|ENV\.fetch\('PARTNER_|process\.env\.PARTNER_\w+!|\$ENV\{PARTNER_\w+\}(?!\s*\/\/)|std::env::var\("PARTNER_\w+"\)\?/,
      );
    },
  );

  it.each(Object.keys(FLOWS))('%s: its NOTES.md lists the variables with their defaults', (row) => {
    const notes = read(row, 'NOTES.md');
    const section = notes.slice(notes.indexOf("## The flow's variables"));
    expect(notes).toContain("## The flow's variables");
    expect(section).toMatch(/\| `PARTNER_BASE_URL` \| `http:\/\/127\.0\.0\.1:4010` \|/);
    expect(section).toMatch(/\| `PARTNER_API_KEY` \| `sandbox-dev-key` \|/);
    expect(section).toMatch(/\| `PARTNER_RUN` \| the time in base 36 \|/);
    expect(section).toContain(FLOWS[row]![0]!.split('/').at(-1)!);
  });
});
