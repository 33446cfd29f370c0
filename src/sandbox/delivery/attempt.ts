// One attempt to deliver an event to an endpoint: the request (the signed envelope, or a legacy
// endpoint's flat data), and its send: the POST with its timeout, and what came back: the status, a
// labelled excerpt of the body (domain/response-excerpt.ts), or why no answer came.
import { signWebhook } from '../../webhooks/signature.js';
import { excerptCollector, type ResponseExcerpt } from '../domain/response-excerpt.js';
import type { WebhookEndpoint } from '../store/deliveries.js';

export const DELIVERY_TIMEOUT_MS = 10_000;
/** Marks the dispatcher's requests, so that the sandbox refuses one sent to itself (a loop). */
export const DELIVERY_HEADER = 'x-sandbox-webhook-delivery';

export interface AttemptOutcome {
  /** The receiver's status; null when none answered. */
  status: number | null;
  /** What the log keeps of the body; null when no answer came. */
  response: ResponseExcerpt | null;
  /**
   * Why no complete answer came (a timeout, also while the body was read; a refused connection); null when one came.
   */
  error: string | null;
  latencyMs: number;
}

/** What one attempt POSTs, exactly: the bytes and headers a receiver gets. */
export interface DeliveryRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

/** Sends one attempt and tells what came back; never throws. A test may stand in for the POST. */
export type SendAttempt = (request: DeliveryRequest, timeoutMs: number) => Promise<AttemptOutcome>;

/** The request a delivery sends: the signed envelope, or a legacy endpoint's flat data object. */
export function deliveryRequest(
  endpoint: WebhookEndpoint,
  payload: string,
  now: () => number = Date.now,
): DeliveryRequest {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'hsa-fsa-sandbox-webhooks',
    [DELIVERY_HEADER]: '1',
  };
  if (endpoint.mode === 'legacy') {
    return {
      url: endpoint.url,
      body: JSON.stringify((JSON.parse(payload) as { data: unknown }).data),
      headers: { ...headers, 'x-service-api-key': endpoint.secret },
    };
  }
  // The real time, which the receiver checks against its own clock, whatever the sandbox clock says.
  const signed = signWebhook(payload, endpoint.secret, Math.floor(now() / 1000));
  return {
    url: endpoint.url,
    body: signed.body,
    headers: { ...headers, 'x-service-signature': signed.signatureHeader },
  };
}

function reason(cause: unknown, timeoutMs: number): string {
  const failure = cause as Error & { cause?: { code?: string; message?: string } };
  if (failure.name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s`;
  return failure.cause?.code ?? failure.cause?.message ?? failure.message;
}

/** Reads the body into its excerpt, as far as MOST_BODY_BYTES_READ; a failure keeps what was read. */
async function readExcerpt(answer: Response): Promise<{ excerpt: ResponseExcerpt; failure?: unknown }> {
  const collector = excerptCollector();
  if (!answer.body) return { excerpt: collector.result(true) };
  const reader = answer.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { excerpt: collector.result(true) };
      if (!collector.add(value)) {
        await reader.cancel().catch(() => {});
        return { excerpt: collector.result(false) };
      }
    }
  } catch (failure) {
    return { excerpt: collector.result(false), failure };
  }
}

/** POSTs the request once; never throws. */
export async function sendAttempt({ url, body, headers }: DeliveryRequest, timeoutMs: number): Promise<AttemptOutcome> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  try {
    const answer = await fetch(url, {
      method: 'POST',
      body,
      headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const { excerpt, failure } = await readExcerpt(answer);
    return {
      status: answer.status,
      response: excerpt,
      error: failure === undefined ? null : reason(failure, timeoutMs),
      latencyMs: latency(),
    };
  } catch (cause) {
    return { status: null, response: null, error: reason(cause, timeoutMs), latencyMs: latency() };
  }
}
