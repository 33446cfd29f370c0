// The Host allow-list decides a Host value once and keeps the allowance (http/allowed-hosts.ts):
// the memo must answer as the rule does, follow a change of the public URL, and stay bounded.
import { describe, expect, it } from 'vitest';
import { hostAllowance, hostAllowed, MOST_KEPT_HOSTS } from '../../src/sandbox/http/allowed-hosts.js';

/** hostAllowed, counting the Host values it was asked about. */
function countingRule() {
  const asked: string[] = [];
  const decide: typeof hostAllowed = (host, allowed) => {
    asked.push(host);
    return hostAllowed(host, allowed);
  };
  return { asked, decide };
}

describe('the Host allowance kept per Host value', () => {
  it('answers as the rule does, for allowed and refused hosts, asked once and again', () => {
    const isAllowed = hostAllowance({ publicUrl: () => 'https://sandbox.example.com', names: ['.team.test'] });
    const cases: Array<[string, boolean]> = [
      ['localhost:4010', true],
      ['127.0.0.1', true],
      ['[::1]:4010', true],
      ['sandbox.example.com', true],
      ['qa.team.test:443', true],
      ['evil.example', false],
      ['evil.com/.localhost', false],
      ['sandbox.example.com.evil.example', false],
    ];
    for (let round = 0; round < 2; round++)
      for (const [host, allowed] of cases) expect(isAllowed(host), `${host}, round ${round}`).toBe(allowed);
  });

  it('decides an allowed Host once, and a refused one at each request', () => {
    const { asked, decide } = countingRule();
    const isAllowed = hostAllowance({ publicUrl: () => 'http://127.0.0.1:4010', names: [] }, decide);
    for (let n = 0; n < 3; n++) {
      isAllowed('localhost:4010');
      isAllowed('evil.example');
    }
    expect(asked).toEqual(['localhost:4010', 'evil.example', 'evil.example', 'evil.example']);
  });

  it('decides again once the public URL changes: its old host is refused, its new one allowed', () => {
    let publicUrl = 'https://old.example.com';
    const isAllowed = hostAllowance({ publicUrl: () => publicUrl, names: [] });
    expect(isAllowed('old.example.com')).toBe(true);
    publicUrl = 'https://new.example.com:8443';
    expect(isAllowed('old.example.com')).toBe(false);
    expect(isAllowed('new.example.com:8443')).toBe(true);
    expect(isAllowed('localhost')).toBe(true);
  });

  it(`keeps at most ${MOST_KEPT_HOSTS} hosts: the memo is emptied when full, and every host decided again`, () => {
    const { asked, decide } = countingRule();
    const isAllowed = hostAllowance({ publicUrl: () => 'http://127.0.0.1:4010', names: [] }, decide);
    const hosts = Array.from({ length: MOST_KEPT_HOSTS }, (_, n) => `app-${n}.localhost`);
    for (const host of hosts) isAllowed(host);
    for (const host of hosts) isAllowed(host);
    expect(asked).toHaveLength(MOST_KEPT_HOSTS);
    // One more fills it past its bound: it is emptied, and the first host is decided again.
    expect(isAllowed('one-more.localhost')).toBe(true);
    expect(asked).toHaveLength(MOST_KEPT_HOSTS + 1);
    expect(isAllowed('one-more.localhost')).toBe(true);
    expect(asked).toHaveLength(MOST_KEPT_HOSTS + 1);
    expect(isAllowed(hosts[0]!)).toBe(true);
    expect(asked).toHaveLength(MOST_KEPT_HOSTS + 2);
  });
});
