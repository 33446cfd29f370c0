// One of three sandbox processes killed with SIGKILL during a burst of writes through all three:
// every write a sandbox acknowledged is there, read through the survivors; a write cut off with its
// sandbox was applied whole or not at all, and its retry through another sandbox, under the same
// idempotency key, makes one session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxGroup, startSandboxProcesses } from '../../testkit/sandbox-processes.js';
import { sessionRequest } from '../../testkit/sandbox.js';
import { testDatabase } from '../support/postgres-database.js';
import { CREATE, call, sessionPath } from './sandboxes-support.js';

let group: SandboxGroup;
beforeAll(async () => {
  group = await startSandboxProcesses(3, await testDatabase('kill'), {
    timeoutMs: 60_000,
    args: ['--public-url', 'http://127.0.0.1:4010'],
  });
});
afterAll(async () => {
  await group?.stop();
});

const WRITES = 150;
const AT_ONCE = 9;
const KILL_AFTER = 45;
const metadataOf = (n: number) => JSON.stringify({ order_id: `kill-${n}` });
const bodyOf = (n: number) =>
  sessionRequest({ idempotency_key: `kill-${n}`, customer_email: `kill-${n}@example.com`, metadata: metadataOf(n) });

describe('a sandbox killed with kill -9 during a burst of writes', () => {
  it('every acknowledged write is present, and each cut-off write retried elsewhere makes one session', async () => {
    const [, victim] = group.sandboxes;
    const acknowledged = new Map<number, string>();
    const cutOff: number[] = [];
    let next = 0;
    let killed: Promise<void> | undefined;
    const worker = async () => {
      while (next < WRITES) {
        const n = next++;
        if (n === KILL_AFTER) killed = victim!.kill();
        try {
          const reply = await call(group.at(n), 'POST', CREATE, { body: bodyOf(n) });
          if (reply.status === 200) acknowledged.set(n, reply.body.id);
          else cutOff.push(n);
        } catch {
          // The connection to the killed sandbox was refused or reset: no answer, nothing acknowledged.
          cutOff.push(n);
        }
      }
    };
    await Promise.all(Array.from({ length: AT_ONCE }, worker));
    await killed;
    console.log(`${acknowledged.size} writes acknowledged, ${cutOff.length} cut off by the kill`);
    expect(cutOff.length).toBeGreaterThan(0);
    const [a, , c] = group.sandboxes;
    for (const [n, id] of acknowledged) {
      const detail = await call(n % 2 ? a! : c!, 'GET', sessionPath(id));
      expect(detail.status).toBe(200);
      expect(detail.body.metadata).toBe(metadataOf(n));
    }
    // The client retries what got no answer, through a survivor, under the same key.
    for (const n of cutOff) expect((await call(a!, 'POST', CREATE, { body: bodyOf(n) })).status).toBe(200);
    for (let n = 0; n < WRITES; n++) {
      const found = await call(c!, 'GET', `/payments/v1/payment_sessions?search=kill-${n}@example.com`);
      expect(found.body.payment_sessions).toHaveLength(1);
      if (acknowledged.has(n)) expect(found.body.payment_sessions[0].id).toBe(acknowledged.get(n));
    }
  });
});
