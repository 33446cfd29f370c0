// An in-process sandbox on an in-memory database, for behaviour tests. Every response is checked
// against the document that declares its route (the contract, or the sandbox's helper API): a
// status it does not declare, or a body that does not validate, fails the test.
import { buildSandbox } from '../src/sandbox/http/app.js';
import { SANDBOX_FILE, templateMatches } from '../src/sandbox/http/document.js';
import { drillDeliveryShaper } from '../src/sandbox/http/evolution-drill.js';
import { createStore, openDatabase } from '../src/sandbox/store/index.js';
import { contract, loadDocument, operations, responseViolations, validatorAt } from './contract.js';
import { decodedSegments } from './paths.js';
import { sqliteBackend } from '../src/sandbox/store/sqlite-backend.js';

export const DEV_KEY = 'sandbox-dev-key';
export const OTHER_KEY = 'sandbox-other-key';

const documents = [contract, loadDocument(SANDBOX_FILE)];

/** The operation of either document whose method and path template match. */
function routeOf(method: string, path: string) {
  for (const doc of documents) {
    const found = operations(doc).find((o) => o.method === method.toLowerCase() && templateMatches(o.path, path));
    if (found) return { doc, operationId: found.op.operationId };
  }
  return undefined;
}

/** What is wrong with a response, judged by the document; [] when it conforms. */
export function documentViolations(method: string, rawPath: string, status: number, body: unknown): string[] {
  const path = decodedSegments(rawPath);
  // Pages for people (hosted checkout, health, the documents themselves) are not API routes.
  if (!/^\/(payments|api|v1|sandbox\/v1)\//.test(path) && status < 400) return [];
  const route = routeOf(method, path);
  if (!route) {
    // Unknown routes and wrong methods answer the contract's shared 404 / 405.
    const shared: Record<number, string> = {
      404: 'NotFoundError',
      405: 'MethodNotAllowedError',
      401: 'UnauthorizedError',
    };
    if (!shared[status]) return [`${method} ${path} is no route of the documents, yet answered ${status}`];
    const validate = validatorAt(`#/components/schemas/${shared[status]}`);
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  }
  return responseViolations(route.operationId, status, body, route.doc);
}

export interface CallOptions {
  body?: unknown;
  /** Sent as is, instead of body. */
  raw?: string;
  key?: string | null;
  headers?: Record<string, string>;
  /** The response is knowingly outside the documents (see openapi/sandbox.yaml); skip the check. */
  undocumented?: boolean;
}

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Record<string, unknown>;
}

export const noCharges = { total_additional_charges: 0, total_discounts: 0 };

export function sessionRequest(overrides: Record<string, unknown> = {}) {
  return {
    total_amount: 7799,
    amount_details: { total_additional_charges: 800, total_discounts: 0 },
    success_url: 'https://shop.example/orders/{{payment_session_id}}/thanks',
    failure_url: 'https://shop.example/orders/{{payment_session_id}}/failed',
    customer_email: 'Jane.Doe@example.com',
    customer_name: 'Jane Doe',
    metadata: '{"order_id":"A-1001"}',
    order_items: [
      {
        name: 'Blood pressure monitor',
        sku: 'BPM-200',
        item_id: 'line-1',
        quantity: 1,
        price: 4999,
        amount_details: { total_additional_charges: 0, total_discounts: -500 },
      },
      { name: 'Thermometer', sku: 'TH-10', quantity: 2, price: 1250, amount_details: noCharges },
    ],
    ...overrides,
  };
}

export function testSandbox() {
  const db = openDatabase(':memory:');
  // Made as the server makes it: each delivery shaped by its channel's evolution drill as it is sent.
  const store = createStore(db, { shapeDelivery: drillDeliveryShaper() });
  const app = buildSandbox({ store: sqliteBackend(store) });

  async function call<T = any>(method: string, url: string, options: CallOptions = {}): Promise<Reply<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key !== null) headers['x-service-api-key'] = options.key ?? DEV_KEY;
    let payload: string | undefined = options.raw;
    if (payload === undefined && options.body !== undefined) payload = JSON.stringify(options.body);
    if (payload !== undefined) headers['content-type'] ??= 'application/json';
    const response = await app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(payload !== undefined ? { payload } : {}),
    });
    const type = String(response.headers['content-type'] ?? '');
    const body = type.includes('json') ? response.json() : response.body;
    if (!options.undocumented) {
      const problems = documentViolations(method, url.split('?')[0]!, response.statusCode, body);
      if (problems.length > 0)
        throw new Error(
          `${method} ${url} → ${response.statusCode} breaks the document:\n${problems.join('\n')}\n${JSON.stringify(body)}`,
        );
    }
    return { status: response.statusCode, body: body as T, headers: response.headers };
  }

  const post = <T = any>(url: string, body?: unknown, options: CallOptions = {}) =>
    call<T>('POST', url, { ...options, body });
  const get = <T = any>(url: string, options: CallOptions = {}) => call<T>('GET', url, options);

  async function createSession(overrides: Record<string, unknown> = {}, options: CallOptions = {}): Promise<string> {
    const reply = await post('/payments/v1/create_payment_session', sessionRequest(overrides), options);
    if (reply.status !== 200) throw new Error(`create failed: ${JSON.stringify(reply.body)}`);
    return reply.body.id as string;
  }

  const session = (id: string) => `/payments/v1/payment_session/${id}`;

  return {
    app,
    store,
    /** The database under the store, for a test that must write what the API never would. */
    db,
    call,
    post,
    get,
    session,
    createSession,
    complete: (id: string, eligible = true) =>
      post(`/sandbox/v1/payment_sessions/${id}/complete_checkout`, { eligible }),
    review: (id: string, decision: 'accept' | 'decline') =>
      post(`/sandbox/v1/payment_sessions/${id}/review`, { decision }),
    detail: (id: string) => get(session(id)),
    outbox: (eventType?: string) =>
      get(`/sandbox/v1/outbox?limit=1000${eventType ? `&event_type=${encodeURIComponent(eventType)}` : ''}`).then(
        (r) => r.body.events as Array<{ id: string; event_type: string; payload: any }>,
      ),
    /** A captured one-time payment (create, checkout, review accepted). */
    async capturedOneTime(overrides: Record<string, unknown> = {}) {
      const id = await createSession(overrides);
      await this.complete(id);
      await this.review(id, 'accept');
      return id;
    },
    /** An authorization with its hold placed. */
    async authorized(overrides: Record<string, unknown> = {}) {
      const id = await createSession({ kind: 'authorization', ...overrides });
      await this.complete(id);
      return id;
    },
    close: async () => {
      await app.close();
      db.close();
    },
  };
}

export type TestSandbox = ReturnType<typeof testSandbox>;
