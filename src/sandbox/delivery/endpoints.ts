// Webhook endpoints: what a new one takes (its URL, its events, its secret and its mode), and the
// endpoint --webhook-url configures at start.
import { randomBytes } from 'node:crypto';
import { randomIds } from '../ids.js';
import { helperRefusal } from '../domain/errors.js';
import { ownAddressNamed, type SandboxAddress } from '../domain/own-address.js';
import type { SandboxStore } from '../store/store.js';
import type { EndpointMode, WebhookEndpoint } from '../store/deliveries.js';

/** Endpoints per channel: each event opens a request to every one. */
export const MAX_ENDPOINTS = 20;

export const newSecret = () => `whsec_${randomBytes(24).toString('base64url')}`;

/** A receiver's URL must be absolute http(s), and not the sandbox's own address: the dispatcher POSTs there. */
function checkUrl(url: string, sandbox: SandboxAddress | undefined): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw helperRefusal('InvalidRequest', `url is not an absolute URL: ${JSON.stringify(url.slice(0, 100))}.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw helperRefusal('InvalidRequest', 'url must be an http or https URL.');
  // Credentials in a URL would be sent, and logged, with every delivery.
  if (parsed.username !== '' || parsed.password !== '')
    throw helperRefusal('InvalidRequest', 'url must not carry a user or a password.');
  const own = sandbox && ownAddressNamed(parsed, sandbox);
  if (own) {
    throw helperRefusal(
      'InvalidRequest',
      `url points at the sandbox itself (${own}): give the address of your own receiver; the sandbox does not ` +
        `deliver webhooks to itself.`,
    );
  }
}

export function newEndpoint(fields: {
  id: string;
  channel: string;
  url: string;
  eventTypes?: string[];
  secret?: string;
  mode?: EndpointMode;
  now: string;
  sandbox?: SandboxAddress;
}): WebhookEndpoint {
  checkUrl(fields.url, fields.sandbox);
  // Which events an endpoint may name (as the outbox names them, `*` every one, `dispute.*` every
  // dispute event) is the request's enum (openapi/sandbox/components/schemas/WebhookEndpointRequest.yaml):
  // the helper route refuses any other before this runs, and --webhook-url names none.
  // The reference writes the token event both ways; the outbox names it with a dot.
  const eventTypes = (fields.eventTypes ?? ['*']).map((type) =>
    type === 'payment_token_updated' ? 'payment_token.updated' : type,
  );
  return {
    id: fields.id,
    channel: fields.channel,
    url: fields.url,
    event_types: [...new Set(eventTypes)],
    secret: fields.secret ?? newSecret(),
    mode: fields.mode ?? 'signed',
    created_at: fields.now,
  };
}

/**
 * --webhook-url: the one endpoint the command line owns on the channel. A restart with another URL
 * or secret points it there (its pending deliveries follow); without a secret, the one in use stays.
 */
export async function configureEndpoint(
  store: SandboxStore,
  channel: string,
  option: { url: string; secret?: string },
  sandbox?: SandboxAddress,
) {
  const existing = await store.deliveries.cliEndpoint(channel);
  if (existing) {
    const secret = option.secret ?? existing.secret;
    // Checked even when unchanged: the sandbox may now listen where the URL points.
    newEndpoint({ id: existing.id, channel, url: option.url, now: existing.created_at, sandbox });
    // Unchanged, this writes the same URL and secret again.
    await store.deliveries.repoint(existing.id, option.url, secret);
    return { channel, url: option.url, secret, mode: existing.mode, event_types: existing.event_types };
  }
  const endpoint = newEndpoint({
    id: `we_${randomIds.short()}`,
    channel,
    url: option.url,
    ...(option.secret ? { secret: option.secret } : {}),
    now: await store.clock.now(channel),
    sandbox,
  });
  await store.deliveries.addEndpoint(endpoint, 'cli');
  return {
    channel,
    url: endpoint.url,
    secret: endpoint.secret,
    mode: endpoint.mode,
    event_types: endpoint.event_types,
  };
}
