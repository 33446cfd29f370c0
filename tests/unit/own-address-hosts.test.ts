// Hosts as the URL parser writes them, and which IPv4-mapped and 127.x hosts are the sandbox itself.
import { describe, expect, it } from 'vitest';
import { canonicalHost, ownAddressNamed, type SandboxAddress } from '../../src/sandbox/domain/own-address.js';

describe('canonicalHost', () => {
  it('writes IPv4 in dotted decimal and IPv6 compressed, without brackets', () => {
    expect([
      canonicalHost('0x7f.1'),
      canonicalHost('0:0:0:0:0:0:0:1'),
      canonicalHost('[0:0:0:0:0:0:0:1]'),
      canonicalHost('Example.COM.'),
    ]).toEqual(['127.0.0.1', '::1', '::1', 'example.com']);
  });

  it('lower-cases a host the URL parser refuses, and strips only brackets that enclose it', () => {
    expect(canonicalHost('Not A Host')).toBe('not a host');
    expect(canonicalHost('x[::1]')).toBe('x[::1]');
    expect(canonicalHost('[::1]x')).toBe('[::1]x');
  });
});

describe('ownAddressNamed with mapped and 127 hosts', () => {
  const lan: SandboxAddress = { listening: [{ address: '10.0.0.5', port: 4010 }], localHosts: [] };
  const named = (url: string) => ownAddressNamed(new URL(url), lan);

  it('takes an IPv4-mapped loopback as loopback, whatever its low group', () => {
    expect(named('http://[::ffff:127.0.1.1]:4010/')).toBe('[::ffff:7f00:101]:4010');
  });

  it('does not take an address that only contains a mapped loopback or 127. for loopback', () => {
    for (const url of ['http://[1::ffff:7f00:1]:4010/', 'http://[::ffff:7f00:1:2]:4010/', 'http://10.127.0.1:4010/']) {
      expect({ url, named: named(url) }).toEqual({ url, named: undefined });
    }
  });
});
