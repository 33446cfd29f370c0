// A partner's webhook receiver on 127.0.0.1, for delivery tests: it verifies every signed delivery
// with this package's verifyWebhook, keeps what it received, and answers as the test says (204, a
// 500, a 200 or 202 that is not the 204 receivers owe, no answer, an answer held until the test
// releases it, or a reset connection).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '../src/webhooks/index.js';

export type Answer = 'ok' | 'fail' | 'ok-200' | 'ok-202' | 'hang' | 'hold' | 'reset';

export interface Received {
  headers: http.IncomingHttpHeaders;
  raw: string;
  /** The verified envelope (signed) or the flat data (legacy). */
  body: Record<string, any>;
  /** When the whole request had arrived (Date.now()). */
  arrivedAt: number;
}

export interface Receiver {
  url: string;
  /** Where the receiver also serves GET pages (a checkout's success_url, an iframe's parent). */
  origin: string;
  port: number;
  /** Deliveries answered 204, in the order they arrived. */
  accepted: Received[];
  /** The raw body of every POST, whatever the answer, in the order they arrived. */
  arrived: string[];
  /** Signatures that did not verify: must stay empty. */
  rejected: string[];
  /** The raw bodies of the requests answered 'hold', not answered yet. */
  held(): string[];
  /** Answers the held requests as `answer` says: 'ok' (the default) or 'reset' (as a timeout ends them). */
  releaseHeld(answer?: 'ok' | 'reset'): void;
  close(): Promise<void>;
}

export async function startReceiver(
  options: { secret?: string; legacyKey?: string; port?: number; answer?: (n: number) => Answer } = {},
): Promise<Receiver> {
  const accepted: Received[] = [];
  const arrived: string[] = [];
  const rejected: string[] = [];
  const held: Array<{ raw: string; accept: () => void; reset: () => void }> = [];
  let n = 0;
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((request, response) => {
    // GET: the partner's pages a checkout ends on, and a parent page that embeds a checkout in an iframe.
    if (request.method === 'GET') {
      const url = new URL(request.url ?? '/', 'http://receiver');
      const src = url.searchParams.get('src');
      const body =
        url.pathname === '/parent' && src
          ? `<!doctype html><html lang="en"><head><title>Parent</title></head><body><main><h1>Parent</h1><iframe title="Checkout" src="${src.replace(/"/g, '&quot;')}" width="600" height="900"></iframe></main><script>window.messages=[];addEventListener('message',(e)=>window.messages.push(e.data));</script></body></html>`
          : '<!doctype html><html lang="en"><head><title>Landed</title></head><body><main><h1>Landed</h1></main></body></html>';
      return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const arrivedAt = Date.now();
      const raw = Buffer.concat(chunks).toString('utf8');
      arrived.push(raw);
      const answer = options.answer?.(n++) ?? 'ok';
      if (answer === 'hang') return;
      if (answer === 'reset') return void request.socket.destroy();
      if (answer === 'fail') return void response.writeHead(500).end('Internal Server Error');
      // A success of another kind than the 204 receivers must answer: not recorded as accepted.
      if (answer === 'ok-200') return void response.writeHead(200, { 'content-type': 'text/plain' }).end('OK');
      if (answer === 'ok-202') return void response.writeHead(202).end();
      if (answer === 'hold')
        return void held.push({
          raw,
          accept: () => accept(request, response, raw, arrivedAt),
          reset: () => request.socket.destroy(),
        });
      accept(request, response, raw, arrivedAt);
    });
  });
  /** Verifies the delivery, keeps it, and answers 204 (400 when the signature does not verify). */
  function accept(request: http.IncomingMessage, response: http.ServerResponse, raw: string, arrivedAt: number): void {
    let body: Record<string, any>;
    if (options.legacyKey !== undefined) {
      if (request.headers['x-service-api-key'] !== options.legacyKey)
        rejected.push(`legacy key ${String(request.headers['x-service-api-key'])}`);
      body = JSON.parse(raw) as Record<string, any>;
    } else {
      try {
        body = verifyWebhook({
          rawBody: raw,
          signatureHeader: String(request.headers['x-service-signature']),
          secret: options.secret ?? '',
        }) as unknown as Record<string, any>;
      } catch (error) {
        rejected.push((error as Error).message);
        return void response.writeHead(400).end();
      }
    }
    accepted.push({ headers: request.headers, raw, body, arrivedAt });
    response.writeHead(204).end();
  }
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    origin: `http://127.0.0.1:${port}`,
    port,
    accepted,
    arrived,
    rejected,
    held: () => held.map((request) => request.raw),
    releaseHeld: (answer = 'ok') => {
      for (const request of held.splice(0)) (answer === 'ok' ? request.accept : request.reset)();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Waits until the condition holds, checking every 20 ms, or fails after `timeoutMs`. */
export async function until(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
  what = 'the condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
