// createServiceClient's options at their edges: an API key that is missing or blank, an https base
// URL, trailing slashes of a base URL, and what the default fetch hands the platform's fetch.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServiceClient, resolveBaseUrl } from '../../src/client/index.js';
import { sendRequest } from '../../src/client/client.js';

const listPage = () =>
  new Response(
    JSON.stringify({ payment_sessions: [], pagination: { current_page: 1, page_size: 30, count: 0, last_page: 1 } }),
    { status: 200, headers: { 'content-type': 'application/json' } },
  );

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the API key', () => {
  it.each([
    ['missing', undefined],
    ['blank', '   '],
    ['only a newline', '\n'],
  ])('is refused as required when %s, not as whitespace', (_name, apiKey) => {
    const create = () => createServiceClient({ environment: 'production', apiKey: apiKey as string });
    expect(create).toThrow(TypeError);
    expect(create).toThrow(/apiKey is required/);
  });
});

describe('the base URL', () => {
  it('accepts an https base URL and sends calls under it', async () => {
    const requests: Request[] = [];
    const client = createServiceClient({
      environment: 'https://sandbox.example/api/',
      apiKey: 'k',
      fetch: async (request) => {
        requests.push(request);
        return listPage();
      },
    });
    await client.GET('/payments/v1/payment_sessions');
    expect(requests[0]!.url).toBe('https://sandbox.example/api/payments/v1/payment_sessions');
  });

  it.each([
    ['https://sandbox.example', 'https://sandbox.example'],
    ['https://sandbox.example/', 'https://sandbox.example'],
    ['http://127.0.0.1:4010/', 'http://127.0.0.1:4010'],
    ['https://sandbox.example/api//', 'https://sandbox.example/api'],
    ['http://127.0.0.1:4010/a//b///', 'http://127.0.0.1:4010/a//b'],
  ])('drops every trailing slash, and only those: %s', (environment, baseUrl) => {
    expect(resolveBaseUrl(environment)).toBe(baseUrl);
  });

  it('sends a call under a base URL with a path and trailing slashes to that path', async () => {
    const requests: Request[] = [];
    const client = createServiceClient({
      environment: 'https://sandbox.example/api//',
      apiKey: 'k',
      fetch: async (request) => {
        requests.push(request);
        return listPage();
      },
    });
    await client.GET('/payments/v1/payment_sessions');
    expect(requests[0]!.url).toBe('https://sandbox.example/api/payments/v1/payment_sessions');
  });
});

describe('the default fetch (sendRequest) and the platform fetch', () => {
  it('hands a request without a body over as its parts, not as a Request to copy', async () => {
    const platform = vi.fn(async (..._args: unknown[]) => listPage());
    vi.stubGlobal('fetch', platform);
    const controller = new AbortController();
    const request = new Request('https://api.service.example/payments/v1/payment_sessions?page=2', {
      headers: { 'x-service-api-key': 'k' },
      signal: controller.signal,
      redirect: 'manual',
    });
    await sendRequest(request);
    expect(platform).toHaveBeenCalledTimes(1);
    const [url, init] = platform.mock.calls[0]! as [unknown, RequestInit];
    expect(url).toBe('https://api.service.example/payments/v1/payment_sessions?page=2');
    expect(init.method).toBe('GET');
    expect(init.headers).toBe(request.headers);
    expect(init.signal).toBe(request.signal);
    expect(init.redirect).toBe('manual');
  });

  it('keeps every option a caller set on a request without a body', async () => {
    const platform = vi.fn(async (..._args: unknown[]) => listPage());
    vi.stubGlobal('fetch', platform);
    const options = {
      cache: 'no-store',
      credentials: 'include',
      integrity: 'sha256-AAAA',
      keepalive: true,
      mode: 'same-origin',
      redirect: 'error',
      referrer: 'https://shop.example/cart',
      referrerPolicy: 'no-referrer-when-downgrade',
    } as const satisfies RequestInit;
    const request = new Request('https://api.service.example/payments/v1/payment_sessions', options);
    await sendRequest(request);
    const [, init] = platform.mock.calls[0]! as [unknown, RequestInit];
    // Each as the Request reports it, which is what fetch(request) would have used.
    for (const key of Object.keys(options) as Array<keyof typeof options>) expect(init[key], key).toEqual(request[key]);
    expect(init).toMatchObject({
      cache: 'no-store',
      credentials: 'include',
      integrity: 'sha256-AAAA',
      keepalive: true,
      mode: 'same-origin',
      redirect: 'error',
      referrerPolicy: 'no-referrer-when-downgrade',
    });
  });

  it('hands a request with a body over as built', async () => {
    const platform = vi.fn(async (..._args: unknown[]) => listPage());
    vi.stubGlobal('fetch', platform);
    const request = new Request('https://api.service.example/payments/v1/payment_session/s-1/capture', {
      method: 'POST',
      body: '{"total_amount":1}',
    });
    await sendRequest(request);
    expect(platform.mock.calls[0]).toEqual([request]);
    expect(platform.mock.calls[0]![0]).toBe(request);
  });
});
