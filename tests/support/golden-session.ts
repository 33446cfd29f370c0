// One session built by the domain's own steps, every id and time fixed, whose stored renderings
// are pinned by golden files (tests/unit/fixtures/*-view-golden.json).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { newSession } from '../../src/sandbox/domain/create-session.js';
import { openDispute, resolveDispute } from '../../src/sandbox/domain/disputes.js';
import { refund } from '../../src/sandbox/domain/refunds.js';
import { completeCheckout, review } from '../../src/sandbox/domain/sessions.js';
import type { CreateSessionRequest, Session } from '../../src/sandbox/domain/types.js';
import { sessionRequest } from '../../testkit/sandbox.js';

/** A session built by the domain's own steps, every id and time fixed: captured, partly refunded, one dispute won, one lost. */
export function goldenSession(): Session {
  let n = 0;
  const newId = () => `golden${String(++n).padStart(4, '0')}`;
  const at = (minute: number) => new Date(Date.UTC(2026, 0, 15, 9, minute)).toISOString();
  const session = newSession({
    id: '5b0c7d1e-2f3a-4b4c-8d5e-6f7a8b9c0d1e',
    channel: 'dev',
    request: sessionRequest({ idempotency_key: 'golden-order' }) as CreateSessionRequest,
    now: at(0),
    newId,
    userBusinessId: '9e8d7c6b-5a4f-4e3d-9c2b-1a0f9e8d7c6b',
  });
  completeCheckout(session, at(1));
  review(session, 'accept', at(2));
  refund(session, { amount: 1250, idempotency_key: 'golden-refund', reason: 'customer_request' }, at(3), newId);
  openDispute(session, { id: 'dp_golden_won', amount: 1000, now: at(4) });
  resolveDispute(session, 'dp_golden_won', 'won', at(5));
  openDispute(session, { id: 'dp_golden_lost', amount: 500, now: at(6) });
  resolveDispute(session, 'dp_golden_lost', 'lost', at(7));
  return session;
}

/**
 * The two tests of a stored rendering pinned to its version. Rows stored under the current
 * version are served as stored, so a change of the rendering that does not bump the version
 * leaves every stored row stale. The golden file holds, by version, the exact rendering of the
 * fixed session: a changed rendering fails until the version is bumped and the new rendering
 * added under it; a bump alone fails until the golden is added too.
 */
export function describePinnedRendering(
  name: string,
  pin: {
    version: number;
    goldenFile: URL;
    render: (session: Session) => string;
    stored: (session: Session) => Record<string, unknown>;
  },
): void {
  describe(`the stored ${name} rendering, pinned to its version`, () => {
    const golden = JSON.parse(readFileSync(pin.goldenFile, 'utf8')) as Record<string, unknown>;

    it('renders the fixed session exactly as the golden of the current version', () => {
      expect(Object.keys(golden)).toContain(String(pin.version));
      const rendered = pin.render(goldenSession());
      expect(pin.stored(goldenSession())).toEqual({ text: rendered, version: pin.version });
      // The text itself, key order included: a stored row is served as it is.
      expect(rendered).toBe(JSON.stringify(golden[String(pin.version)]));
    });

    it("holds no golden of a version past the current one, and each earlier version's rendering differs from it", () => {
      const versions = Object.keys(golden).map(Number);
      expect(Math.max(...versions)).toBe(pin.version);
      const current = JSON.stringify(golden[String(pin.version)]);
      for (const version of versions.filter((v) => v !== pin.version))
        expect({ version, same: JSON.stringify(golden[String(version)]) === current }).toEqual({
          version,
          same: false,
        });
    });
  });
}
