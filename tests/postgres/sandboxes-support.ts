// What the tests of several sandbox processes on one PostgreSQL database share: a call over HTTP
// to any of them, checked against the documents, and the requests that make a session and its
// hold.
import { documentViolations, sessionRequest } from '../../testkit/sandbox.js';
import { SANDBOX_API_KEY, type SandboxProcess } from '../../testkit/sandbox-process.js';

export interface HttpReply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface HttpCallOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** The response is knowingly outside the documents (a 503 of a database that is down is not). */
  undocumented?: boolean;
}

/** A request to `sandbox` with the development key; every answer is checked against its document. */
export async function call<T = any>(
  sandbox: Pick<SandboxProcess, 'baseUrl'>,
  method: string,
  url: string,
  options: HttpCallOptions = {},
): Promise<HttpReply<T>> {
  const headers: Record<string, string> = { 'x-service-api-key': SANDBOX_API_KEY, ...options.headers };
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(`${sandbox.baseUrl}${url}`, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  const body = (response.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text;
  if (!options.undocumented) {
    const problems = documentViolations(method, url.split('?')[0]!, response.status, body);
    if (problems.length > 0)
      throw new Error(`${method} ${url} → ${response.status} breaks the document:\n${problems.join('\n')}\n${text}`);
  }
  return { status: response.status, body: body as T, headers: response.headers };
}

export const CREATE = '/payments/v1/create_payment_session';
export const sessionPath = (id: string) => `/payments/v1/payment_session/${id}`;

/** A new session through `sandbox`; its id. */
export async function createSession(
  sandbox: Pick<SandboxProcess, 'baseUrl'>,
  overrides: Record<string, unknown> = {},
): Promise<string> {
  const reply = await call(sandbox, 'POST', CREATE, { body: sessionRequest(overrides) });
  if (reply.status !== 200) throw new Error(`create failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.id as string;
}

/** An authorization with its hold placed through `sandbox`: create, then the customer's checkout. */
export async function authorized(sandbox: Pick<SandboxProcess, 'baseUrl'>): Promise<string> {
  const id = await createSession(sandbox, { kind: 'authorization' });
  const reply = await call(sandbox, 'POST', `/sandbox/v1/payment_sessions/${id}/complete_checkout`, {
    body: { eligible: true },
  });
  if (reply.status !== 200) throw new Error(`checkout failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return id;
}
