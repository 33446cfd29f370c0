// A key sent in clear text is said: `listen` and `trigger` warn, once, when --sandbox is neither
// https nor an address of this machine (src/sandbox/cli/clear-text.ts). The host is judged by its
// spelling, as the URL parser writes it; no name is resolved, so only names Node never asks DNS
// for (localhost itself) count as this machine.
import { describe, expect, it } from 'vitest';
import { clearTextWarning, isLoopbackUrl } from '../../src/sandbox/cli/clear-text.js';

describe('the clear-text warning', () => {
  it('is given for plain http to another machine, naming the origin', () => {
    const far = [
      'http://10.0.0.5:4010',
      'http://sandbox.qa.example:4010',
      'http://0.0.0.0:4010',
      'http://[2001:db8::1]:4010',
      'http://localhost.example',
      'http://128.0.0.1',
    ];
    for (const sandbox of far) {
      expect(clearTextWarning(sandbox), sandbox).toBe(
        `warning: the sandbox at ${new URL(sandbox).origin} is reached ` +
          'over plain HTTP on another machine: the API key travels in clear text, and anyone on the network between ' +
          'can read it and change the answers. Use https, or a tunnel to an address of this machine.',
      );
    }
  });

  const UNDER_LOCALHOST = ['http://sandbox.localhost:4010', 'http://evil.com.localhost'];
  it.each(UNDER_LOCALHOST)('is given for %s: a subdomain of localhost, which Node resolves through DNS', (sandbox) => {
    expect(clearTextWarning(sandbox)).toMatch(/^warning: the sandbox at /);
  });

  it('is not given for https, nor for loopback: localhost itself, 127.0.0.0/8, ::1', () => {
    const safe = [
      'https://sandbox.qa.example',
      'https://10.0.0.5:8443',
      'http://localhost:4010',
      'http://LOCALHOST',
      'https://api.localhost:4010',
      'http://127.0.0.1:4010',
      'http://127.255.0.9',
      'http://127.1',
      'http://[::1]:4010',
      'http://[::ffff:127.0.0.1]:4010',
    ];
    for (const sandbox of safe) expect(clearTextWarning(sandbox), sandbox).toBeUndefined();
  });

  it('reads the host whole: a loopback spelling inside another name is another machine', () => {
    const others = ['127.0.0.1.nip.io', 'localhost.evil.example', 'evil-localhost', '[::2]', '[::ffff:a00:1]'];
    others.push('127.0.0.1x');
    for (const host of others) {
      expect(isLoopbackUrl(new URL(`http://${host}/`)), host).toBe(false);
    }
    expect(isLoopbackUrl(new URL('http://a.b.localhost/'))).toBe(false);
  });
});
