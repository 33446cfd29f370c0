// What `listen` sends its receiver: the claimed body, byte for byte, to its own --forward-to, with
// only the headers a receiver needs. The sandbox it asks may be another machine, or anyone in the
// middle of a plain-HTTP --sandbox: were the URL or the headers of a claim taken as given, it could
// use this machine to reach what only this machine reaches, with an authorization or a cookie of
// its choosing. So the flags decide where, and the claim gives only the body and its signature.
import type { DeliveryRequest } from '../delivery/attempt.js';

/**
 * The headers of a claim that reach the receiver: the body's type, its signature (the service's
 * scheme, `x-service-signature`), and the sandbox's mark of a delivery, which makes a sandbox
 * refuse one forwarded to itself. The delivery's id is in the body (`webhook_delivery_id`).
 */
export const FORWARDED_HEADERS: readonly string[] = [
  'content-type',
  'x-service-signature',
  'x-sandbox-webhook-delivery',
];

/** Sent by `listen` itself, whatever the claim says: the dispatcher's, one sender to a receiver. */
export const FORWARD_USER_AGENT = 'hsa-fsa-sandbox-webhooks';

/** The claim's headers that FORWARDED_HEADERS names (in lower case), after listen's own user-agent and JSON type. */
export function forwardedHeaders(claimed: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': FORWARD_USER_AGENT };
  for (const [name, value] of Object.entries(claimed)) {
    const lower = name.toLowerCase();
    if (FORWARDED_HEADERS.includes(lower) && typeof value === 'string') headers[lower] = value;
  }
  return headers;
}

/** The POST to the receiver: to `forwardTo` (the flag), the claimed body, the allowed headers. */
export function forwardedRequest(
  forwardTo: string,
  claim: { request_body: string; request_headers: Record<string, unknown> },
): DeliveryRequest {
  return { url: forwardTo, body: claim.request_body, headers: forwardedHeaders(claim.request_headers) };
}
