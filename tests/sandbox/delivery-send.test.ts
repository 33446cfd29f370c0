// The dispatcher's POST itself (delivery/attempt.ts sendAttempt), against receivers on 127.0.0.1
// that answer as each test needs: what it tells of an answer with no body, of a body cut short by
// the timeout, of a request that got no answer in time, and of a refused connection; and how long
// the attempt took.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { sendAttempt, type DeliveryRequest } from '../../src/sandbox/delivery/attempt.js';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A receiver whose every POST is answered by `answer`; its URL. */
async function receiverAt(answer: (response: http.ServerResponse) => void): Promise<string> {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => answer(response));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
}

const request = (url: string): DeliveryRequest => ({
  url,
  body: '{"webhook_delivery_id":"dlv_1"}',
  headers: { 'content-type': 'application/json' },
});

/** The attempt, and the time it took as seen from outside, in ms. */
async function timed(url: string, timeoutMs: number) {
  const before = performance.now();
  const outcome = await sendAttempt(request(url), timeoutMs);
  return { outcome, elapsed: performance.now() - before };
}

describe('sendAttempt', () => {
  it('a 204 without a body is an empty excerpt of 0 bytes, read to its end, and no error', async () => {
    const url = await receiverAt((response) => response.writeHead(204).end());
    const { outcome, elapsed } = await timed(url, 5000);
    expect(outcome).toEqual({
      status: 204,
      response: { text: '', truncated: false, body_bytes: 0 },
      error: null,
      latencyMs: expect.any(Number),
    });
    // The attempt's own duration: not more than the call took.
    expect(outcome.latencyMs).toBeGreaterThanOrEqual(0);
    expect(outcome.latencyMs).toBeLessThanOrEqual(Math.ceil(elapsed));
  });

  it('a body still arriving at the timeout keeps the status and what was read, labelled truncated, with no length, and says why it stopped', async () => {
    // The headers and the first bytes of a body announced longer, then nothing more.
    const url = await receiverAt((response) => {
      response.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' });
      response.write('partial');
    });
    const { outcome, elapsed } = await timed(url, 300);
    expect(outcome).toEqual({
      status: 200,
      response: { text: 'partial', truncated: true, body_bytes: null },
      error: 'no answer within 0.3 s',
      latencyMs: expect.any(Number),
    });
    expect(outcome.latencyMs).toBeGreaterThanOrEqual(250);
    expect(outcome.latencyMs).toBeLessThanOrEqual(Math.ceil(elapsed));
  });

  it('a request with no answer within the timeout has no status and no excerpt, and says how long it waited, in seconds', async () => {
    const url = await receiverAt(() => {});
    const { outcome, elapsed } = await timed(url, 200);
    expect(outcome).toEqual({
      status: null,
      response: null,
      error: 'no answer within 0.2 s',
      latencyMs: expect.any(Number),
    });
    expect(outcome.latencyMs).toBeGreaterThanOrEqual(150);
    expect(outcome.latencyMs).toBeLessThanOrEqual(Math.ceil(elapsed));
  });

  it('a refused connection is told by its code, not as a timeout', async () => {
    // A port that was listening a moment ago: nothing listens there now.
    const url = await receiverAt((response) => response.writeHead(204).end());
    const server = servers.pop()!;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const { outcome, elapsed } = await timed(url, 5000);
    expect(outcome).toEqual({ status: null, response: null, error: 'ECONNREFUSED', latencyMs: expect.any(Number) });
    expect(outcome.latencyMs).toBeLessThanOrEqual(Math.ceil(elapsed));
  });
});
