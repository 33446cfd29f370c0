// One attempt to deliver an event to an endpoint: the request (the signed envelope, or a legacy
// endpoint's flat data), the POST with its timeout, and what came back: the status, the first bytes
// of the body, or why no answer came.
import { signWebhook } from '../../webhooks/signature.js';
import type { WebhookEndpoint } from '../store/deliveries.js';

export const DELIVERY_TIMEOUT_MS = 10_000;
/** Marks the dispatcher's requests, so that the sandbox refuses one sent to itself (a loop). */
export const DELIVERY_HEADER = 'x-sandbox-webhook-delivery';
/** The first bytes of a receiver's answer kept in the log (then decoded as UTF-8). */
const RESPONSE_EXCERPT = 200;

export interface AttemptOutcome {
  /** The receiver's status; null when none answered. */
  status: number | null;
  /** The first bytes of the body; null when no complete answer came. */
  response: string | null;
  /** Why no complete answer came (a timeout, also while the body was read; a refused connection); null when one came. */
  error: string | null;
  latencyMs: number;
}

/** The request a delivery sends: the signed envelope, or a legacy endpoint's flat data object. */
export function deliveryRequest(endpoint: WebhookEndpoint, payload: string, now: () => number = Date.now): { body: string; headers: Record<string, string> } {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'hsa-fsa-sandbox-webhooks', [DELIVERY_HEADER]: '1' };
  if (endpoint.mode === 'legacy') {
    return { body: JSON.stringify((JSON.parse(payload) as { data: unknown }).data), headers: { ...headers, 'x-service-api-key': endpoint.secret } };
  }
  // The real time, which the receiver checks against its own clock, whatever the sandbox clock says.
  const signed = signWebhook(payload, endpoint.secret, Math.floor(now() / 1000));
  return { body: signed.body, headers: { ...headers, 'x-service-signature': signed.signatureHeader } };
}

function reason(cause: unknown, timeoutMs: number): string {
  const failure = cause as Error & { cause?: { code?: string; message?: string } };
  if (failure.name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s`;
  return failure.cause?.code ?? failure.cause?.message ?? failure.message;
}

/** The first bytes of an answer, read no further. */
async function excerpt(answer: Response): Promise<string> {
  if (!answer.body) return '';
  const reader = answer.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < RESPONSE_EXCERPT) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel().catch(() => {});
  return Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT).toString('utf8');
}

/** POSTs the event to the endpoint once; never throws. */
export async function sendAttempt(endpoint: WebhookEndpoint, payload: string, timeoutMs: number): Promise<AttemptOutcome> {
  const { body, headers } = deliveryRequest(endpoint, payload);
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  try {
    const answer = await fetch(endpoint.url, { method: 'POST', body, headers, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    try {
      return { status: answer.status, response: await excerpt(answer), error: null, latencyMs: latency() };
    } catch (cause) {
      return { status: answer.status, response: null, error: reason(cause, timeoutMs), latencyMs: latency() };
    }
  } catch (cause) {
    return { status: null, response: null, error: reason(cause, timeoutMs), latencyMs: latency() };
  }
}
