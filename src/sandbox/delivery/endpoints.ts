// Webhook endpoints: what a new one takes (its URL, its events, its secret and its mode), and the
// endpoint --webhook-url configures at start.
import { randomBytes } from 'node:crypto';
import { helperRefusal } from '../domain/errors.js';
import type { Store } from '../store/index.js';
import type { EndpointMode, WebhookEndpoint } from '../store/deliveries.js';

/** The events an endpoint may subscribe to, as the outbox names them; `*` is every one. */
export const EVENT_TYPES = [
  'payment_session_complete', 'payment_token.updated', 'product_catalog.item.eligibility_updated',
  'dispute.created', 'dispute.updated', 'dispute.closed', 'dispute.evidence_submitted',
] as const;

export const newSecret = () => `whsec_${randomBytes(24).toString('base64url')}`;

/** A receiver's URL must be absolute http(s): the dispatcher POSTs there. */
function checkUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw helperRefusal('InvalidRequest', `url is not an absolute URL: ${JSON.stringify(url.slice(0, 100))}.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw helperRefusal('InvalidRequest', 'url must be an http or https URL.');
}

export function newEndpoint(fields: { id: string; channel: string; url: string; eventTypes?: string[]; secret?: string; mode?: EndpointMode; now: string }): WebhookEndpoint {
  checkUrl(fields.url);
  const eventTypes = fields.eventTypes ?? ['*'];
  const unknown = eventTypes.filter((type) => type !== '*' && !(EVENT_TYPES as readonly string[]).includes(type));
  if (unknown.length > 0) throw helperRefusal('InvalidRequest', `Unknown event types: ${unknown.join(', ')}; use ${EVENT_TYPES.join(', ')} or *.`);
  return { id: fields.id, channel: fields.channel, url: fields.url, event_types: [...new Set(eventTypes)], secret: fields.secret ?? newSecret(), mode: fields.mode ?? 'signed', created_at: fields.now };
}

/** --webhook-url: the channel's endpoint at that URL, made or given this secret (kept when none is given). */
export function configureEndpoint(store: Store, channel: string, option: { url: string; secret?: string }) {
  const existing = store.deliveries.endpointByUrl(channel, option.url);
  if (existing && (option.secret === undefined || option.secret === existing.secret)) return { channel, url: existing.url, secret: existing.secret };
  if (existing) {
    // A new secret for the same receiver: its pending deliveries are signed with it from now on.
    store.deliveries.setSecret(channel, existing.id, option.secret!);
    return { channel, url: existing.url, secret: option.secret! };
  }
  const endpoint = newEndpoint({ id: `we_${randomBytes(10).toString('hex')}`, channel, url: option.url, ...(option.secret ? { secret: option.secret } : {}), now: store.clock.now(channel) });
  store.deliveries.addEndpoint(endpoint);
  return { channel, url: endpoint.url, secret: endpoint.secret };
}
