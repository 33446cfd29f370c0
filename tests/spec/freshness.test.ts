// generated/ is committed; it must be exactly what `npm run build` makes from openapi/ now.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../build/documents.ts';
import { repoRoot } from '../../testkit/contract.js';

const committed = path.join(repoRoot, 'generated');
let fresh: string;

beforeAll(async () => {
  fresh = mkdtempSync(path.join(os.tmpdir(), 'contract-fresh-'));
  await build(fresh, { quiet: true });
}, 120_000);
afterAll(() => rmSync(fresh, { recursive: true, force: true }));

describe('generated/', () => {
  it('holds the same files as a fresh build', () => {
    expect(readdirSync(committed).sort()).toEqual(readdirSync(fresh).sort());
  });

  it('holds the OpenAPI 3.0 companion, whose freshness is checked with the rest', () => {
    expect(readdirSync(fresh)).toEqual(expect.arrayContaining(['openapi-3.0.json', 'openapi-3.0.yaml']));
  });

  it.each(readdirSync(committed))('%s is up to date (run npm run build)', (file) => {
    const stale = readFileSync(path.join(committed, file), 'utf8') !== readFileSync(path.join(fresh, file), 'utf8');
    expect(stale, `generated/${file} is stale: run npm run build and commit it`).toBe(false);
  });
});
