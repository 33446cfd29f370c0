// The custom Spectral rules can fail: each reports its violation in a fixture built to break it.
// And redocly.yaml's scoped rules apply where they are meant to, and nowhere else.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../testkit/contract.js';

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

describe('redocly.yaml', () => {
  const redocly = (args: string[], cwd: string) =>
    spawnSync(path.join(repoRoot, 'node_modules', '.bin', 'redocly'), args, {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
    });
  /** The rules whose problems `redocly lint <target>` reports, with the project's config. */
  const rulesBroken = (target: string, cwd: string) =>
    new Set(
      (
        JSON.parse(redocly(['lint', target, '--format', 'json'], cwd).stdout) as { problems: Array<{ ruleId: string }> }
      ).problems.map((p) => p.ruleId),
    );

  it('keeps its OpenAPI rules live for each document: no-ambiguous-paths on for the helper API only, examples checked in all', () => {
    // The project's config, with the fixture in place of each API's root.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'contract-redocly-'));
    try {
      copyFileSync(path.join(repoRoot, 'redocly.yaml'), path.join(dir, 'redocly.yaml'));
      mkdirSync(path.join(dir, 'openapi'));
      const fixture = readFileSync(path.join(repoRoot, 'tests/spec/fixtures/redocly-scoped-rules.yaml'), 'utf8');
      for (const root of ['openapi.yaml', 'sandbox.yaml']) writeFileSync(path.join(dir, 'openapi', root), fixture);
      writeFileSync(
        path.join(dir, 'companion.yaml'),
        fixture.replace('openapi: 3.1.0', 'openapi: 3.0.3').replace('identifier: MIT', 'url: https://license.example'),
      );
      const [contract, sandbox, companion] = ['contract', 'sandbox', 'companion.yaml'].map((target) =>
        rulesBroken(target, dir),
      );
      expect([
        contract!.has('no-ambiguous-paths'),
        sandbox!.has('no-ambiguous-paths'),
        companion!.has('no-ambiguous-paths'),
      ]).toEqual([false, true, false]);
      expect([
        contract!.has('no-invalid-media-type-examples'),
        sandbox!.has('no-invalid-media-type-examples'),
        companion!.has('no-invalid-media-type-examples'),
      ]).toEqual([true, true, true]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('hands the Arazzo lint no rule it does not use: npm run lint prints no "Unused rules"', () => {
    const result = redocly(['lint', 'openapi/workflows/idempotency.arazzo.yaml'], repoRoot);
    expect(result.status).toBe(0);
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/Unused rules/);
  }, 60_000);
});
