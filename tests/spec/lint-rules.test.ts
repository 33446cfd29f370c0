// The custom Spectral rules can fail: each reports its violation in a fixture built to break it.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/contract.js';

function spectral(file: string): Array<{ code: string; path: string[] }> {
  const result = spawnSync(
    path.join(repoRoot, 'node_modules', '.bin', 'spectral'),
    ['lint', file, '--ruleset', '.spectral.yaml', '--format', 'json', '--quiet'],
    { cwd: repoRoot, encoding: 'utf8' },
  );
  return JSON.parse(result.stdout) as Array<{ code: string; path: string[] }>;
}

describe('custom Spectral rules', () => {
  const codes = new Set(spectral('tests/spec/fixtures/violations.yaml').map((r) => r.code));

  it.each([
    'operation-id-camel-case-verb-first',
    'operation-common-errors',
    'error-responses-use-error-schema',
    'property-description',
    'parameter-description',
    'money-fields-are-integer-cents',
    'no-inline-response-schema',
  ])('%s reports the fixture', (rule) => {
    expect(codes.has(rule)).toBe(true);
  });
}, 60_000);
