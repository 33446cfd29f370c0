// What the fairness tests of both backends share (tests/sandbox/channel-fairness.test.ts, and
// tests/postgres/'s): a sandbox on the given store, channel `other` with large sessions, and the
// order in which concurrent requests are answered, which needs no clock.
import { buildSandbox } from '../../src/sandbox/http/app.js';
import type { SandboxStore } from '../../src/sandbox/store/store.js';
import { noCharges, sessionRequest } from '../../testkit/sandbox.js';

const OTHER = { 'x-service-api-key': 'sandbox-other-key', 'content-type': 'application/json' };
const DEV = { 'x-service-api-key': 'sandbox-dev-key', 'content-type': 'application/json' };

export async function fairnessSandbox(store: SandboxStore) {
  const app = buildSandbox({ store });
  await app.ready();
  const create = (headers: Record<string, string>, key: string, metadata?: string) =>
    app.inject({
      method: 'POST',
      url: '/payments/v1/create_payment_session',
      headers,
      payload: sessionRequest({
        idempotency_key: key,
        ...(metadata ? { metadata } : {}),
        order_items: [{ name: 'Monitor', sku: 'BPM-200', quantity: 1, price: 7799, amount_details: noCharges }],
        amount_details: noCharges,
      }),
    });
  // Ten large sessions of channel other (64 KiB of metadata each), and one of dev.
  for (let n = 0; n < 10; n++) await create(OTHER, `large-${n}`, String(n).repeat(64 * 1024));
  const devSession = ((await create(DEV, 'dev-own')).json() as { id: string }).id;

  /** Sends every request at once; the order their answers came in, each by its name. */
  async function answeredOrder(requests: Array<{ name: string; send: () => Promise<{ statusCode: number }> }>) {
    const order: string[] = [];
    await Promise.all(
      requests.map(async ({ name, send }) => {
        const response = await send();
        if (response.statusCode !== 200) throw new Error(`${name} answered ${response.statusCode}`);
        order.push(name);
      }),
    );
    return order;
  }

  const heavyRead = (i: number) => ({
    name: `other-list-${i}`,
    send: () =>
      app.inject({
        method: 'GET',
        url: `/payments/v1/payment_sessions?page_size=3&page=${1 + (i % 3)}&include_metadata=true`,
        headers: OTHER,
      }),
  });
  const devRetrieve = {
    name: 'dev-retrieve',
    send: () => app.inject({ method: 'GET', url: `/payments/v1/payment_session/${devSession}`, headers: DEV }),
  };
  const otherCreate = (i: number) => ({ name: `other-create-${i}`, send: () => create(OTHER, `burst-${i}`) });
  const devCreate = { name: 'dev-create', send: () => create(DEV, 'dev-during-burst') };
  return { app, store, answeredOrder, heavyRead, devRetrieve, otherCreate, devCreate };
}
