// The pure rules of webhook delivery: which URLs name the sandbox itself, and what the delivery log
// keeps of a receiver's answer.
import { describe, expect, it } from 'vitest';
import { ownAddressNamed, type SandboxAddress } from '../../src/sandbox/domain/own-address.js';
import {
  EXCERPT_CHARACTERS,
  excerptCollector,
  MOST_BODY_BYTES_READ,
} from '../../src/sandbox/domain/response-excerpt.js';

describe('ownAddressNamed', () => {
  const loopback: SandboxAddress = { listening: [{ address: '127.0.0.1', port: 4010 }], localHosts: [] };
  const named = (url: string, sandbox = loopback) => ownAddressNamed(new URL(url), sandbox);

  it('names the sandbox under every loopback alias at its port, and nothing at another port', () => {
    for (const url of [
      'http://127.0.0.1:4010/admin',
      'http://localhost:4010',
      'http://LocalHost.:4010',
      'http://a.b.localhost:4010',
      'http://[::1]:4010',
      'http://0.0.0.0:4010',
      'http://[::]:4010',
      'http://127.0.0.2:4010',
      'http://127.1:4010',
      'http://2130706433:4010',
      'http://[::ffff:127.0.0.1]:4010',
      'http://[0:0:0:0:0:0:0:1]:4010',
      'https://localhost:4010',
    ]) {
      expect({ url, named: named(url) !== undefined }).toEqual({ url, named: true });
    }
    for (const url of [
      'http://127.0.0.1:4011',
      'http://localhost',
      'https://localhost',
      'http://example.com:4010',
      'http://10.0.0.7:4010',
      'http://[::ffff:10.0.0.7]:4010',
    ]) {
      expect({ url, named: named(url) }).toEqual({ url, named: undefined });
    }
    expect(named('http://127.1:4010/x')).toBe('127.0.0.1:4010');
  });

  it("takes a URL without a port at its scheme's port", () => {
    const onDefaultPorts: SandboxAddress = {
      listening: [
        { address: '127.0.0.1', port: 80 },
        { address: '127.0.0.1', port: 443 },
      ],
      localHosts: [],
    };
    expect(named('http://localhost/', onDefaultPorts)).toBe('localhost:80');
    expect(named('https://localhost/', onDefaultPorts)).toBe('localhost:443');
  });

  it("names the listening address itself, and, bound to every interface, each of the machine's addresses and its name", () => {
    const lan: SandboxAddress = { listening: [{ address: '192.168.1.20', port: 4010 }], localHosts: [] };
    expect(named('http://192.168.1.20:4010', lan)).toBe('192.168.1.20:4010');
    expect(named('http://192.168.1.21:4010', lan)).toBeUndefined();
    const everywhere: SandboxAddress = {
      listening: [{ address: '::', port: 4010 }],
      localHosts: ['devbox', '192.168.1.20', 'fe80::1'],
    };
    expect(named('http://DEVBOX:4010', everywhere)).toBe('devbox:4010');
    expect(named('http://192.168.1.20:4010', everywhere)).toBe('192.168.1.20:4010');
    expect(named('http://[fe80::1]:4010', everywhere)).toBe('[fe80::1]:4010');
    expect(named('http://192.168.1.21:4010', everywhere)).toBeUndefined();
  });
});

describe('excerptCollector', () => {
  const collect = (chunks: Array<string | Uint8Array>, ended = true) => {
    const collector = excerptCollector();
    for (const chunk of chunks) collector.add(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    return collector.result(ended);
  };

  it('keeps a short body whole, with its length in bytes', () => {
    expect(collect([])).toEqual({ text: '', truncated: false, body_bytes: 0 });
    expect(collect(['Internal ', 'Server Error'])).toEqual({
      text: 'Internal Server Error',
      truncated: false,
      body_bytes: 21,
    });
    expect(collect(['x'.repeat(EXCERPT_CHARACTERS)])).toEqual({
      text: 'x'.repeat(EXCERPT_CHARACTERS),
      truncated: false,
      body_bytes: EXCERPT_CHARACTERS,
    });
  });

  it('keeps the first 200 characters of a longer body, labelled truncated, with the whole length', () => {
    expect(collect(['x'.repeat(EXCERPT_CHARACTERS + 1)])).toEqual({
      text: 'x'.repeat(EXCERPT_CHARACTERS),
      truncated: true,
      body_bytes: EXCERPT_CHARACTERS + 1,
    });
    expect(collect(['a'.repeat(150), 'b'.repeat(150), 'c'.repeat(5000)])).toEqual({
      text: 'a'.repeat(150) + 'b'.repeat(50),
      truncated: true,
      body_bytes: 5300,
    });
  });

  it('counts characters, not bytes or UTF-16 units, and decodes a character split across chunks', () => {
    const euro = Buffer.from('€'); // 3 bytes
    expect(collect([euro.subarray(0, 1), euro.subarray(1)])).toEqual({ text: '€', truncated: false, body_bytes: 3 });
    expect(collect(['😀'.repeat(250)])).toEqual({ text: '😀'.repeat(200), truncated: true, body_bytes: 1000 });
    expect(collect([new Uint8Array([0xff, 0x41])])).toEqual({ text: '\uFFFDA', truncated: false, body_bytes: 2 });
  });

  it('stops counting past 1 MiB, and a body not read to its end has no length', () => {
    const collector = excerptCollector();
    expect(collector.add(new Uint8Array(MOST_BODY_BYTES_READ))).toBe(true);
    expect(collector.add(new Uint8Array(1))).toBe(false);
    expect(collector.result(false)).toMatchObject({ truncated: true, body_bytes: null });
    expect(collect(['OK'], false)).toEqual({ text: 'OK', truncated: true, body_bytes: null });
  });
});
