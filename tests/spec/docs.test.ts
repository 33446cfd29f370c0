// The rendered reference is one self-contained page: Redoc is inlined, nothing is fetched from a
// CDN, and every operation of the contract is in it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: the docs script is plain JavaScript, without types.
import { buildDocs } from '../../scripts/docs.mjs';
import { operations } from '../support/contract.js';

let dir: string;
let html: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'contract-docs-'));
  html = readFileSync(buildDocs(path.join(dir, 'index.html'), { quiet: true }), 'utf8');
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('rendered docs', () => {
  it('load no script or stylesheet from the network', () => {
    const external = [...html.matchAll(/<(script|link)\b[^>]*\b(src|href)=["']?(https?:)?\/\//gi)].map((m) => m[0]);
    expect(external).toEqual([]);
  });

  it('inline the Redoc bundle', () => {
    expect(html.length).toBeGreaterThan(500_000);
    expect(html).toMatch(/<script>[\s\S]{100000,}<\/script>/);
  });

  it.each(operations().map((o) => [o.op.operationId, o.op.summary] as const))('render %s', (_id, summary) => {
    expect(html).toContain(summary);
  });
});
