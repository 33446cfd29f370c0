// isPaymentSessionComplete: its signed event_type is undocumented, so it is told apart by what it is
// not (another documented event) and by what it carries (a session status).
import { describe, expect, it } from 'vitest';
import { isPaymentSessionComplete, type WebhookEvent } from '../../src/webhooks/index.js';

const delivery = (event_type: string | undefined, data: object) =>
  ({ webhook_delivery_id: 'dlv_1', event_type, data }) as WebhookEvent;

describe('isPaymentSessionComplete', () => {
  it('accepts an undocumented or absent event_type carrying a status', () => {
    expect(
      isPaymentSessionComplete(delivery('payment_session.complete', { payment_id: 'p', status: 'captured' })),
    ).toBe(true);
    expect(isPaymentSessionComplete(delivery(undefined, { payment_id: 'p', status: 'captured' }))).toBe(true);
  });

  it('refuses an undocumented event_type without a status', () => {
    expect(isPaymentSessionComplete(delivery('payment_session.complete', { payment_id: 'p' }))).toBe(false);
    expect(isPaymentSessionComplete(delivery('payment_session.complete', { payment_id: 'p', status: 1 }))).toBe(false);
  });

  it('refuses a documented event_type even with a status', () => {
    expect(
      isPaymentSessionComplete(delivery('payment_token.updated', { payment_token: 'ptok_1', status: 'active' })),
    ).toBe(false);
  });
});
