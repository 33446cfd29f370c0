// The partner matrix keeps its downloads and builds outside the clone, so that a fresh clone does
// not fetch them again; PARTNERS_CACHE_DIR and XDG_CACHE_HOME choose where.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { partnersCacheDir } from './cache-dir.js';

describe("the partner matrix's cache folder", () => {
  it("is in the user's cache folder by default, outside any clone", () => {
    expect(partnersCacheDir({}, '/home/dev')).toBe('/home/dev/.cache/hsa-fsa-checkout-contract/partners');
  });

  it('follows an absolute XDG_CACHE_HOME, and ignores a relative one as the XDG rule says', () => {
    expect(partnersCacheDir({ XDG_CACHE_HOME: '/var/cache/dev' }, '/home/dev')).toBe(
      '/var/cache/dev/hsa-fsa-checkout-contract/partners',
    );
    expect(partnersCacheDir({ XDG_CACHE_HOME: 'cache' }, '/home/dev')).toBe(
      '/home/dev/.cache/hsa-fsa-checkout-contract/partners',
    );
    expect(partnersCacheDir({ XDG_CACHE_HOME: '' }, '/home/dev')).toBe(
      '/home/dev/.cache/hsa-fsa-checkout-contract/partners',
    );
  });

  it('is PARTNERS_CACHE_DIR when it is set, made absolute, before XDG_CACHE_HOME', () => {
    expect(partnersCacheDir({ PARTNERS_CACHE_DIR: '/tmp/run-1', XDG_CACHE_HOME: '/var/cache/dev' }, '/home/dev')).toBe(
      '/tmp/run-1',
    );
    expect(partnersCacheDir({ PARTNERS_CACHE_DIR: 'run-2' }, '/home/dev')).toBe(path.resolve('run-2'));
  });
});
