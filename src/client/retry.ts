// Retries a request after a 500 or a network error, but only when it carries an idempotency_key:
// the service says a retry is safe then, and only then.

export interface RetryOptions {
  /** Retries after the first attempt. Default 2. */
  retries?: number;
  /** Delay before the first retry, in ms; it doubles each time. Default 250. */
  baseDelayMs?: number;
  /** Cap of one delay, in ms. Default 4000. */
  maxDelayMs?: number;
  /** Source of jitter in [0, 1). Default Math.random. */
  random?: () => number;
}

type Fetch = (input: Request) => Promise<Response>;

const DEFAULTS = { retries: 2, baseDelayMs: 250, maxDelayMs: 4000 };

/** Exponential backoff with "equal jitter": half the delay is fixed, half random. */
export function backoffDelay(attempt: number, options: RetryOptions = {}): number {
  const base = options.baseDelayMs ?? DEFAULTS.baseDelayMs;
  const cap = options.maxDelayMs ?? DEFAULTS.maxDelayMs;
  const random = options.random ?? Math.random;
  const ceiling = Math.min(cap, base * 2 ** attempt);
  return ceiling / 2 + (ceiling / 2) * random();
}

/** True when the request's JSON body has a non-empty idempotency_key. */
export async function carriesIdempotencyKey(request: Request): Promise<boolean> {
  let body: unknown;
  try {
    body = JSON.parse(await request.clone().text());
  } catch {
    return false; // not JSON (nor is a bodyless request's empty text)
  }
  // JSON null has no properties; the other non-objects (a string, a number) have no idempotency_key.
  if (body === null) return false;
  const key = (body as { idempotency_key?: unknown }).idempotency_key;
  return typeof key === 'string' && key.length > 0;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

const isAbort = (error: unknown) =>
  error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');

/** Wraps fetch with the retry rule. */
export function withRetries(fetchImpl: Fetch, options: RetryOptions = {}): Fetch {
  const retries = options.retries ?? DEFAULTS.retries;
  return async (request) => {
    // A request without a body carries no idempotency_key: straight through, nothing to inspect.
    if (retries === 0 || request.body === null) return fetchImpl(request);
    const retryable = await carriesIdempotencyKey(request);
    for (let attempt = 0; ; attempt++) {
      const lastAttempt = !retryable || attempt >= retries;
      try {
        // A Request body can be read once: each attempt sends a fresh clone.
        const response = await fetchImpl(lastAttempt ? request : request.clone());
        if (response.status !== 500 || lastAttempt) return response;
        await response.body?.cancel();
      } catch (error) {
        if (lastAttempt || isAbort(error) || request.signal.aborted) throw error;
      }
      await sleep(backoffDelay(attempt, options), request.signal);
    }
  };
}
