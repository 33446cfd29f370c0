// The other LTS line's Node is installed once per machine, outside the clone, so that a fresh clone
// (what CI runs on) finds it; RUNTIMES_CACHE_DIR chooses another folder.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runtimesDir } from '../../scripts/lib/runtimes.mjs';

describe('where npm run test:lts installs the other Node', () => {
  it("is the user's cache folder, outside any clone", () => {
    expect(runtimesDir({}, '/home/dev')).toBe('/home/dev/.cache/hsa-fsa-checkout-contract/runtimes');
  });

  it('follows an absolute XDG_CACHE_HOME, and ignores a relative one', () => {
    expect(runtimesDir({ XDG_CACHE_HOME: '/var/cache/dev' }, '/home/dev')).toBe(
      '/var/cache/dev/hsa-fsa-checkout-contract/runtimes',
    );
    expect(runtimesDir({ XDG_CACHE_HOME: 'cache' }, '/home/dev')).toBe(
      '/home/dev/.cache/hsa-fsa-checkout-contract/runtimes',
    );
  });

  it('is RUNTIMES_CACHE_DIR when it is set, resolved from the working folder', () => {
    expect(runtimesDir({ RUNTIMES_CACHE_DIR: '/tmp/one-run' }, '/home/dev')).toBe('/tmp/one-run');
    expect(runtimesDir({ RUNTIMES_CACHE_DIR: 'rel' }, '/home/dev')).toBe(path.resolve('rel'));
  });
});
