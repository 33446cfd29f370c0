// Keeps the sandbox's signed deliveries byte for byte, so that each language's verifier can be run
// on a real one. It verifies nothing itself: that is the verifiers' job.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  body: Buffer;
  signatureHeader: string;
}

export interface DeliveryLog {
  url: string;
  /** The first delivery whose body mentions `text` (a session id), of `eventType` when given, waiting for it up to timeoutMs. */
  find(text: string, eventType?: string, timeoutMs?: number): Promise<Delivery>;
  close(): Promise<void>;
}

export async function startDeliveryLog(): Promise<DeliveryLog> {
  const received: Delivery[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        body: Buffer.concat(chunks),
        signatureHeader: String(request.headers['x-service-signature'] ?? ''),
      });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    async find(text, eventType, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      const isOfType = (delivery: Delivery) =>
        eventType === undefined ||
        (JSON.parse(delivery.body.toString('utf8')) as { event_type?: unknown }).event_type === eventType;
      for (;;) {
        const found = received.find((delivery) => delivery.body.includes(text) && isOfType(delivery));
        if (found) return found;
        if (Date.now() > deadline)
          throw new Error(
            `no signed delivery${eventType ? ` of ${eventType}` : ''} mentioning ${text} arrived within ${timeoutMs} ms (${received.length} others did)`,
          );
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
