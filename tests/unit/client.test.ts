// createServiceClient: base URLs, the API key and User-Agent on every request, cancellation, and
// clear errors for bad options.
import { describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import { createServiceClient, ENVIRONMENTS, USER_AGENT } from '../../src/client/index.js';
import { contract } from '../../testkit/contract.js';

function capturingFetch() {
  const requests: Request[] = [];
  return {
    requests,
    fetch: async (request: Request) => {
      requests.push(request);
      return new Response(
        JSON.stringify({
          payment_sessions: [],
          pagination: { current_page: 1, page_size: 30, count: 0, last_page: 1 },
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      );
    },
  };
}

describe('createServiceClient', () => {
  it('knows exactly the servers of the document', () => {
    expect(Object.values(ENVIRONMENTS)).toEqual(contract.servers.map((s) => s.url));
    expect(Object.keys(ENVIRONMENTS)).toEqual(contract.servers.map((s) => s.description.split(' ')[0]));
  });

  it.each([
    ['development', 'https://dev-api.service.example/payments/v1/payment_sessions?page=2'],
    ['production', 'https://api.service.example/payments/v1/payment_sessions?page=2'],
    ['http://127.0.0.1:4010/', 'http://127.0.0.1:4010/payments/v1/payment_sessions?page=2'],
  ])('sends %s calls to the right base URL, with the key and the User-Agent', async (environment, url) => {
    const { fetch, requests } = capturingFetch();
    const client = createServiceClient({ environment, apiKey: 'sk_test_1', fetch, userAgent: 'acme-shop/2.1' });
    await client.GET('/payments/v1/payment_sessions', { params: { query: { page: 2 } } });
    expect(requests[0]!.url).toBe(url);
    expect(requests[0]!.headers.get('x-service-api-key')).toBe('sk_test_1');
    expect(requests[0]!.headers.get('user-agent')).toBe(`${packageJson.name}/${packageJson.version} acme-shop/2.1`);
    expect(USER_AGENT).toBe(`${packageJson.name}/${packageJson.version}`);
  });

  it('serializes comma-separated list filters as the contract says', async () => {
    const { fetch, requests } = capturingFetch();
    const client = createServiceClient({ environment: 'production', apiKey: 'k', fetch });
    await client.GET('/payments/v1/payment_sessions', {
      params: { query: { kind: ['authorization', 'one_time_payment'], status: ['captured', 'authorized'] } },
    });
    const query = new URL(requests[0]!.url).searchParams;
    // Each filter once, its values joined by commas (style form, explode false), never repeated.
    expect([...query.entries()]).toEqual([
      ['kind', 'authorization,one_time_payment'],
      ['status', 'captured,authorized'],
    ]);
  });

  it('passes the caller AbortSignal to the request', async () => {
    const controller = new AbortController();
    const client = createServiceClient({
      environment: 'production',
      apiKey: 'k',
      // Like fetch: rejects at once when the signal is already aborted, else when it aborts.
      fetch: (request) =>
        new Promise((_resolve, reject) => {
          if (request.signal.aborted) return reject(request.signal.reason);
          request.signal.addEventListener('abort', () => reject(request.signal.reason));
        }),
    });
    const pending = client.GET('/payments/v1/payment_sessions', { signal: controller.signal });
    controller.abort(new DOMException('cancelled by the caller', 'AbortError'));
    await expect(pending).rejects.toThrow('cancelled by the caller');
  });

  it.each([
    [
      { environment: 'staging', apiKey: 'k' },
      /environment must be "development", "production" or an absolute base URL/,
    ],
    [{ environment: 'ftp://files.example', apiKey: 'k' }, /http or https/],
    [{ environment: 'production', apiKey: '' }, /apiKey is required/],
    [{ environment: 'production', apiKey: 'sk_test_1\n' }, /whitespace/],
  ])('refuses bad options clearly: %j', (options, message) => {
    expect(() => createServiceClient(options)).toThrow(message);
  });
});

describe('the default fetch (sendRequest)', () => {
  /** A local server that records each request, answers /moved with a redirect, and /slow never. */
  async function recordingServer() {
    const { createServer } = await import('node:http');
    const seen: Array<{ method: string; url: string; headers: Record<string, unknown>; body: string }> = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
        if (req.url!.startsWith('/payments/v1/payment_session/moved')) {
          res.writeHead(302, { location: '/payments/v1/payment_session/landed' }).end();
        } else if (!req.url!.includes('/slow')) {
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"captured"}');
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as import('node:net').AddressInfo;
    return {
      seen,
      baseUrl: `http://127.0.0.1:${port}`,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  it('sends a GET from its parts with the key, the User-Agent and the query, and follows a redirect', async () => {
    const server = await recordingServer();
    try {
      const client = createServiceClient({
        environment: server.baseUrl,
        apiKey: 'sk_test_1',
        userAgent: 'acme-shop/2.1',
      });
      const moved = await client.GET('/payments/v1/payment_session/{business_id}', {
        params: { path: { business_id: 'moved' } },
      });
      expect(moved.data).toEqual({ status: 'captured' });
      expect(server.seen.map((r) => r.url)).toEqual([
        '/payments/v1/payment_session/moved',
        '/payments/v1/payment_session/landed',
      ]);
      const listed = await client.GET('/payments/v1/payment_sessions', {
        params: { query: { kind: ['authorization'], page: 2 } },
      });
      expect(listed.response.status).toBe(200);
      const last = server.seen.at(-1)!;
      expect({
        method: last.method,
        url: last.url,
        key: last.headers['x-service-api-key'],
        agent: last.headers['user-agent'],
      }).toEqual({
        method: 'GET',
        url: '/payments/v1/payment_sessions?kind=authorization&page=2',
        key: 'sk_test_1',
        agent: `${USER_AGENT} acme-shop/2.1`,
      });
    } finally {
      await server.close();
    }
  });

  it('sends a body as built, and a GET stops when its signal aborts', async () => {
    const server = await recordingServer();
    try {
      const client = createServiceClient({ environment: server.baseUrl, apiKey: 'k', retry: false });
      await client.POST('/payments/v1/payment_session/{business_id}/capture', {
        params: { path: { business_id: 's-1' } },
        body: { total_amount: 3000, idempotency_key: 'cap-1' },
      });
      expect(server.seen.at(-1)).toMatchObject({
        method: 'POST',
        body: '{"total_amount":3000,"idempotency_key":"cap-1"}',
        headers: { 'content-type': 'application/json', 'x-service-api-key': 'k' },
      });
      const controller = new AbortController();
      const pending = client.GET('/payments/v1/payment_session/{business_id}', {
        params: { path: { business_id: 'slow' } },
        signal: controller.signal,
      });
      setTimeout(() => controller.abort(new Error('gave up')), 50);
      await expect(pending).rejects.toThrow('gave up');
    } finally {
      await server.close();
    }
  });
});
