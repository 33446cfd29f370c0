// An event's Resend: the redelivery helper, run for the page alone (with the page's token).
import { api } from './api.js';
import { settings } from './settings.js';
import { say } from './status.js';
import { DASHBOARD_TOKEN_HEADER } from '../token-header.js';
import type { EventSummary, Redelivery } from './types.js';

/**
 * Resends once per click: a second click while the first is on its way does nothing. Not disabled,
 * which would take the focus away.
 */
export async function resend(event: EventSummary, button: HTMLButtonElement) {
  if (button.getAttribute('aria-busy') === 'true') return;
  button.setAttribute('aria-busy', 'true');
  try {
    const outcome = await api<Redelivery>(`/dashboard/outbox/${encodeURIComponent(event.id)}/redeliver`, {
      method: 'POST',
      headers: { [DASHBOARD_TOKEN_HEADER]: settings.token },
    });
    say(
      outcome.deliveries === 0
        ? `Event ${event.id} was not resent: no endpoint of this channel subscribes to ${event.event_type}.`
        : `Event ${event.id} queued again for ${outcome.deliveries} endpoint${outcome.deliveries === 1 ? '' : 's'}.`,
    );
  } catch (error) {
    say(`Event ${event.id} was not resent: ${(error as Error).message}`);
  } finally {
    button.removeAttribute('aria-busy');
  }
}
