// The webhooks guide quotes each language's verifier whole, and the partner matrix runs those very
// files on real deliveries (npm run partners): a guide that drifted from them would teach code that
// nothing checks.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../testkit/contract.js';

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(file) : [file];
  });

const verifiers = filesUnder(path.join(repoRoot, 'partners'))
  .map((file) => path.relative(repoRoot, file))
  .filter((file) => /verify[-_]?webhook/i.test(file) && !file.endsWith('.md'));
const guide = readFileSync(path.join(repoRoot, 'docs', 'guides', 'webhooks.md'), 'utf8');

describe('the webhooks guide', () => {
  it('has a verifier for each language of the partner matrix', () => {
    const languages = new Set(verifiers.map((file) => file.split(path.sep)[1]));
    expect([...languages].sort()).toEqual([
      'csharp',
      'go',
      'java',
      'kotlin',
      'perl',
      'php',
      'python',
      'ruby',
      'rust',
      'typescript',
    ]);
  });

  it.each(verifiers)('quotes %s whole, as the matrix runs it', (file) => {
    const source = readFileSync(path.join(repoRoot, file), 'utf8').trimEnd();
    expect(guide).toContain(`\`${file}\``);
    expect(guide).toContain(`\n${source}\n\`\`\``);
  });
});
