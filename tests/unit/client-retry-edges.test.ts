// The retry rule's edges: what counts as carrying an idempotency_key, which failures stop it at
// once, a request that cannot be retried handed on untouched, and a backoff wait that ends cleanly
// (no timer, no listener left behind) whether it runs out or the caller aborts it.
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServiceClient } from '../../src/client/index.js';
import { withRetries } from '../../src/client/retry.js';

const SESSION = '3f1c2a9e-8b7d-4c55-9e21-6a0d4b7c9f10';
const CAPTURE_URL = 'http://127.0.0.1:1/payments/v1/payment_session/s-1/capture';
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const serverError = () => json(500, { error: 'ServerError', message: 'x' });

/** A fetch that answers from a script, optionally running a step before each answer. */
function scriptedFetch(...answers: Array<Response | Error | (() => Response)>) {
  return vi.fn(async (_request: Request) => {
    const next = answers.shift();
    if (!next) throw new Error('no more scripted answers');
    if (next instanceof Error) throw next;
    return typeof next === 'function' ? next() : next;
  });
}

const fastRetry = { retries: 3, baseDelayMs: 1, maxDelayMs: 2, random: () => 0.5 };
const client = (fetch: (r: Request) => Promise<Response>) =>
  createServiceClient({ environment: 'http://127.0.0.1:1', apiKey: 'key', fetch, retry: fastRetry });
const capture = (
  c: ReturnType<typeof client>,
  body: unknown,
  extra: { signal?: AbortSignal; bodySerializer?: (body: unknown) => string } = {},
) =>
  c.POST('/payments/v1/payment_session/{business_id}/capture', {
    params: { path: { business_id: SESSION } },
    body: body as never,
    ...extra,
  });

const postWithKey = (signal?: AbortSignal) =>
  new Request(CAPTURE_URL, {
    method: 'POST',
    body: JSON.stringify({ total_amount: 100, idempotency_key: 'k1' }),
    headers: { 'content-type': 'application/json' },
    signal,
  });

afterEach(() => {
  vi.useRealTimers();
});

describe('what carries an idempotency_key', () => {
  it.each([
    ['an empty idempotency_key', { total_amount: 100, idempotency_key: '' }],
    ['an idempotency_key that is not a string', { total_amount: 100, idempotency_key: ['k1'] }],
    ['a JSON null body', null],
  ])('does not retry a 500 for %s', async (_name, body) => {
    const fetch = scriptedFetch(serverError(), json(200, { id: 'cap_1' }));
    const { response, error } = await capture(client(fetch), body);
    expect(response.status).toBe(500);
    expect(error).toEqual({ error: 'ServerError', message: 'x' });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('does not retry a 500 for a body that is not JSON, even one naming an idempotency_key', async () => {
    const fetch = scriptedFetch(serverError(), json(200, { id: 'cap_1' }));
    const { response } = await capture(
      client(fetch),
      { total_amount: 100, idempotency_key: 'k1' },
      { bodySerializer: () => 'total_amount=100&idempotency_key=k1' },
    );
    expect(response.status).toBe(500);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('failures that stop the retries at once', () => {
  it.each(['AbortError', 'TimeoutError'])(
    'does not retry a fetch that rejects with a %s, though the caller did not abort',
    async (name) => {
      // e.g. a custom fetch with its own timeout: it gave up on purpose, a retry would undo that.
      const fetch = scriptedFetch(new DOMException('the fetch gave up', name), json(200, { id: 'cap_1' }));
      const rejection = await capture(client(fetch), { total_amount: 100, idempotency_key: 'k1' }).catch(
        (error: unknown) => error,
      );
      expect(rejection).toBeInstanceOf(DOMException);
      expect(rejection).toMatchObject({ name, message: 'the fetch gave up' });
      expect(fetch).toHaveBeenCalledTimes(1);
    },
  );

  it('does not wait nor retry when the caller aborted while the 500 was coming back', async () => {
    const controller = new AbortController();
    const fetch = scriptedFetch(
      () => {
        controller.abort(new DOMException('stopped by the caller', 'AbortError'));
        return serverError();
      },
      json(200, { id: 'cap_1' }),
    );
    await expect(
      capture(client(fetch), { total_amount: 100, idempotency_key: 'k1' }, { signal: controller.signal }),
    ).rejects.toThrow('stopped by the caller');
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('a request that cannot be retried', () => {
  it.each([
    ['a request without a body', () => new Request(CAPTURE_URL), { retries: 2 }],
    ['a request with an idempotency_key when retries is 0', () => postWithKey(), { retries: 0 }],
  ])('is handed to fetch at once, as it is: %s', async (_name, makeRequest, options) => {
    const request = makeRequest();
    const fetch = scriptedFetch(serverError(), json(200, { id: 'cap_1' }));
    const pending = withRetries(fetch, options)(request);
    // In the same tick: its body is not read first.
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0]![0]).toBe(request);
    expect((await pending).status).toBe(500);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('the backoff wait', () => {
  it('leaves no abort listener on the request once it has run out', async () => {
    const request = postWithKey(new AbortController().signal);
    const before = getEventListeners(request.signal, 'abort').length;
    const fetch = scriptedFetch(serverError(), serverError(), json(200, { id: 'cap_1' }));
    const response = await withRetries(fetch, fastRetry)(request);
    expect(response.status).toBe(200);
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(getEventListeners(request.signal, 'abort').length).toBe(before);
  });

  it('ends when the caller aborts during it: rejects with the reason, no timer and no listener left', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const controller = new AbortController();
    const request = postWithKey(controller.signal);
    const before = getEventListeners(request.signal, 'abort').length;
    const fetch = scriptedFetch(serverError(), json(200, { id: 'cap_1' }));
    // The jitter is drawn as the wait starts: the caller aborts right after, while it waits 20 s.
    const random = () => {
      queueMicrotask(() => controller.abort(new DOMException('stopped by the caller', 'AbortError')));
      return 0.5;
    };
    const pending = withRetries(fetch, { retries: 3, baseDelayMs: 20_000, maxDelayMs: 20_000, random })(request);
    await expect(pending).rejects.toThrow('stopped by the caller');
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(request.signal, 'abort').length).toBe(before);
  });
});
