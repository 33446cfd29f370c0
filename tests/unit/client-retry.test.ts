// The retry rule: a 500 or a network error is retried only when the request carries an
// idempotency_key, with exponential backoff and jitter; never a 400; an abort stops it.
import { describe, expect, it, vi } from 'vitest';
import { backoffDelay, createServiceClient } from '../../src/client/index.js';

const SESSION = '3f1c2a9e-8b7d-4c55-9e21-6a0d4b7c9f10';
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A fetch that answers from a script and records what it was sent. */
function scriptedFetch(...answers: Array<Response | Error>) {
  const seen: Array<{ body: string }> = [];
  const fetch = vi.fn(async (request: Request) => {
    seen.push({ body: await request.text() });
    const next = answers.shift();
    if (!next) throw new Error('no more scripted answers');
    if (next instanceof Error) throw next;
    return next;
  });
  return { fetch, seen };
}

const fastRetry = { retries: 3, baseDelayMs: 1, maxDelayMs: 2, random: () => 0.5 };
const client = (
  fetch: (r: Request) => Promise<Response>,
  retry: Parameters<typeof createServiceClient>[0]['retry'] = fastRetry,
) => createServiceClient({ environment: 'http://127.0.0.1:1', apiKey: 'key', fetch, retry });

const capture = (
  c: ReturnType<typeof client>,
  body: { total_amount: number; idempotency_key?: string },
  signal?: AbortSignal,
) =>
  c.POST('/payments/v1/payment_session/{business_id}/capture', {
    params: { path: { business_id: SESSION } },
    body,
    signal,
  });

describe('retries', () => {
  it('retries a 500 when the body carries an idempotency_key, resending the same body', async () => {
    const { fetch, seen } = scriptedFetch(
      json(500, { error: 'ServerError', message: 'x' }),
      json(500, { error: 'ServerError', message: 'x' }),
      json(200, { id: 'cap_1' }),
    );
    const { data } = await capture(client(fetch), { total_amount: 100, idempotency_key: 'k1' });
    expect(data).toEqual({ id: 'cap_1' });
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(new Set(seen.map((s) => s.body))).toEqual(
      new Set([JSON.stringify({ total_amount: 100, idempotency_key: 'k1' })]),
    );
  });

  it('retries a network error when the body carries an idempotency_key', async () => {
    const { fetch } = scriptedFetch(new TypeError('fetch failed'), json(200, { id: 'cap_1' }));
    const { data } = await capture(client(fetch), { total_amount: 100, idempotency_key: 'k1' });
    expect(data).toEqual({ id: 'cap_1' });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('does not retry a 500 without an idempotency_key', async () => {
    const { fetch } = scriptedFetch(json(500, { error: 'ServerError', message: 'x' }), json(200, { id: 'cap_1' }));
    const { error, response } = await capture(client(fetch), { total_amount: 100 });
    expect(response.status).toBe(500);
    expect(error).toEqual({ error: 'ServerError', message: 'x' });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('does not retry a network error without an idempotency_key', async () => {
    const { fetch } = scriptedFetch(new TypeError('fetch failed'), json(200, { id: 'cap_1' }));
    await expect(capture(client(fetch), { total_amount: 100 })).rejects.toThrow('fetch failed');
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('never retries a 400, even with an idempotency_key', async () => {
    const { fetch } = scriptedFetch(
      json(400, { error: 'SessionVoided', message: 'voided' }),
      json(200, { id: 'cap_1' }),
    );
    const { error } = await capture(client(fetch), { total_amount: 100, idempotency_key: 'k1' });
    expect(error).toEqual({ error: 'SessionVoided', message: 'voided' });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('gives up after the configured retries and returns the last 500', async () => {
    const { fetch } = scriptedFetch(
      ...Array.from({ length: 4 }, () => json(500, { error: 'ServerError', message: 'x' })),
    );
    const { response } = await capture(client(fetch), { total_amount: 100, idempotency_key: 'k1' });
    expect(response.status).toBe(500);
    expect(fetch).toHaveBeenCalledTimes(4);
  });

  it('can be turned off', async () => {
    const { fetch } = scriptedFetch(json(500, { error: 'ServerError', message: 'x' }));
    const { response } = await capture(client(fetch, false), { total_amount: 100, idempotency_key: 'k1' });
    expect(response.status).toBe(500);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('stops waiting and rejects when the caller aborts during the backoff', async () => {
    const { fetch } = scriptedFetch(json(500, { error: 'ServerError', message: 'x' }), json(200, { id: 'cap_1' }));
    const controller = new AbortController();
    const slow = client(fetch, { retries: 3, baseDelayMs: 10_000, maxDelayMs: 10_000 });
    const pending = capture(slow, { total_amount: 100, idempotency_key: 'k1' }, controller.signal);
    setTimeout(() => controller.abort(new DOMException('stop', 'AbortError')), 20);
    await expect(pending).rejects.toThrow('stop');
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('backoffDelay', () => {
  it('doubles from the base, with jitter in the upper half, up to the cap', () => {
    const options = { baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffDelay(0, { ...options, random: () => 0 })).toBe(50);
    expect(backoffDelay(0, { ...options, random: () => 0.999999 })).toBeCloseTo(100, 3);
    expect(backoffDelay(2, { ...options, random: () => 0 })).toBe(200);
    expect(backoffDelay(10, { ...options, random: () => 1 })).toBe(1000);
  });
});
