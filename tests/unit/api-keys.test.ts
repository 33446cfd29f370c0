// The rules of the API keys an operator manages (domain/api-keys.ts): where a key stands at a given
// instant, when a rotation ends the old key, and what a channel's name and an overlap may be.
import { describe, expect, it } from 'vitest';
import {
  channelNameProblem,
  keyHint,
  keyServes,
  keyState,
  MANAGED_KEY_PREFIX,
  managedKeyText,
  MAX_OVERLAP_SECONDS,
  overlapProblem,
  rotationEnd,
} from '../../src/sandbox/domain/api-keys.js';

const NOW = '2026-11-29T12:00:00.000Z';
const BEFORE = '2026-11-29T11:59:59.999Z';
const AFTER = '2026-11-29T12:00:00.001Z';

describe('where a key stands', () => {
  it.each([
    [{ expires_at: null, revoked_at: null }, 'active', true],
    [{ expires_at: AFTER, revoked_at: null }, 'expiring', true],
    [{ expires_at: NOW, revoked_at: null }, 'expired', false],
    [{ expires_at: BEFORE, revoked_at: null }, 'expired', false],
    [{ expires_at: null, revoked_at: BEFORE }, 'revoked', false],
    [{ expires_at: AFTER, revoked_at: BEFORE }, 'revoked', false],
  ] as const)('%j is %s at the instant, and serves: %s', (key, state, serves) => {
    expect(keyState(key, NOW)).toBe(state);
    expect(keyServes(key, NOW)).toBe(serves);
  });
});

describe('a rotation', () => {
  it('ends the old key the overlap after now', () => {
    expect(rotationEnd(NOW, 90)).toBe('2026-11-29T12:01:30.000Z');
    expect(rotationEnd(NOW, 0)).toBe(NOW);
  });

  it.each([0, 1, 86_400, MAX_OVERLAP_SECONDS])('takes an overlap of %i seconds', (seconds) => {
    expect(overlapProblem(seconds)).toBeUndefined();
  });

  it.each([-1, 1.5, MAX_OVERLAP_SECONDS + 1, Number.NaN])('refuses an overlap of %s seconds', (seconds) => {
    expect(overlapProblem(seconds)).toBe('the overlap is a whole number of seconds from 0 to 2592000 (30 days)');
  });
});

describe('a channel name', () => {
  it.each(['dev', 'partner-a', 'Team_2.qa', '9', 'x'.repeat(64)])('%j is taken', (name) => {
    expect(channelNameProblem(name)).toBeUndefined();
  });

  it.each(['', '-lead', '.hidden', 'two words', 'a:b', 'a,b', 'é', 'x'.repeat(65), 'line\nbreak'])(
    '%j is refused',
    (name) => {
      expect(channelNameProblem(name)).toMatch(/^a channel is 1 to 64 letters/);
    },
  );
});

describe('the key text', () => {
  it('starts with the prefix a reader can tell it by, and is hinted by its last four characters', () => {
    const key = managedKeyText('abcdefgh1234');
    expect(key).toBe(`${MANAGED_KEY_PREFIX}abcdefgh1234`);
    expect(keyHint(key)).toBe('1234');
  });
});
