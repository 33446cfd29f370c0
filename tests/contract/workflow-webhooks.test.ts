// The webhook side of the contract scenarios. Arazzo steps call operations and check their answers;
// a webhook is a request the service sends later, which no step can wait for or count. So this
// scenario replays every workflow (`npm run contract -- --target … --sandbox`) against a sandbox
// whose deliveries go to a real receiver, and then checks what arrived there: each signature
// verified by this package, each queued event delivered once, exactly one
// payment_session_complete for a session canceled twice, and each change of a dispute once:
// dispute.created once per phase (an inquiry escalated to a chargeback fires it again, as the
// reference says), and dispute.closed once, however often a closed dispute is re-synced.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../testkit/contract.js';
import { SANDBOX_API_KEY, startSandboxProcess, type SandboxProcess } from '../../testkit/sandbox-process.js';
import { startReceiver, until, type Receiver } from '../../testkit/webhook-receiver.js';

const SECRET = 'whsec_workflow_webhooks';

interface OutboxEvent {
  id: string;
  event_type: string;
  payload: { webhook_delivery_id: string; data: Record<string, any> };
}

describe('the webhooks of the contract scenarios', () => {
  let receiver: Receiver;
  let sandbox: SandboxProcess;
  const queued: OutboxEvent[] = [];
  let replay: { status: number | null; output: string };

  const get = async (route: string) => {
    const response = await fetch(`${sandbox.baseUrl}${route}`, { headers: { 'x-service-api-key': SANDBOX_API_KEY } });
    return (await response.json()) as Record<string, any>;
  };
  const received = (eventType: string) =>
    receiver.accepted.map((r) => r.body).filter((body) => body.event_type === eventType);

  beforeAll(async () => {
    receiver = await startReceiver({ secret: SECRET });
    sandbox = await startSandboxProcess({ args: ['--webhook-url', receiver.url, '--webhook-secret', SECRET] });
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'contract-checks/scenarios.ts', '--target', sandbox.baseUrl, '--sandbox'],
      {
        cwd: repoRoot,
        encoding: 'utf8',
        timeout: 180_000,
        env: { ...process.env, NO_COLOR: '1' },
      },
    );
    replay = { status: result.status, output: `${result.stdout}${result.stderr}` };
    // Every event the replay queued, read from the outbox page by page.
    for (let after = ''; ; ) {
      const page = await get(`/sandbox/v1/outbox?limit=100${after ? `&after=${after}` : ''}`);
      queued.push(...(page.events as OutboxEvent[]));
      if (!page.has_more) break;
      after = String(page.next_after);
    }
    await until(() => receiver.accepted.length >= queued.length, 60_000, 'every queued event at the receiver');
    // A moment more, so that a duplicate delivery would have arrived too.
    await new Promise((resolve) => setTimeout(resolve, 500));
  }, 240_000);

  afterAll(async () => {
    await sandbox?.stop();
    await receiver?.close();
  });

  it('replays every workflow green with deliveries on', () => {
    expect(replay.status, replay.output.slice(-3000)).toBe(0);
    expect(queued.length).toBeGreaterThan(20);
  });

  it('delivers each queued event once, and each signature verifies', () => {
    expect(receiver.rejected).toEqual([]);
    const ids = receiver.accepted.map((r) => r.body.webhook_delivery_id as string);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(new Set(queued.map((e) => e.payload.webhook_delivery_id)));
  });

  it('sends exactly one payment_session_complete for a session canceled twice', async () => {
    const canceled = (await get('/payments/v1/payment_sessions?status=canceled&page_size=100'))
      .payment_sessions as Array<{ id: string }>;
    expect(canceled.length).toBeGreaterThan(0);
    for (const { id } of canceled) {
      const events = received('payment_session_complete').filter((body) => body.data.payment_id === id);
      expect({ id, statuses: events.map((body) => body.data.status) }).toEqual({ id, statuses: ['canceled'] });
    }
  });

  it('sends each change of each dispute once: created per phase, updated per state, closed once however often it is re-synced', async () => {
    // The dispute records of the partner's list; the events carry the canonical dispute, keyed dispute_id.
    const disputes = (await get('/v1/disputes?limit=100')).data as Array<{ id: string; state: string }>;
    expect(disputes.length).toBeGreaterThan(3);
    const CLOSED = ['won', 'lost', 'accepted', 'expired', 'closed'];
    const histories = disputes.map(({ id, state }) => ({
      state,
      events: receiver.accepted
        .map((r) => r.body)
        .filter((body) => String(body.event_type).startsWith('dispute.') && body.data.dispute_id === id)
        .map((body) => `${body.event_type} ${body.data.state} ${body.data.phase}`),
    }));
    for (const { state, events } of histories) {
      expect(new Set(events).size, events.join(' → ')).toBe(events.length);
      expect(events.filter((e) => e.startsWith('dispute.closed')).length, events.join(' → ')).toBe(
        CLOSED.includes(state) ? 1 : 0,
      );
    }
    const seen = histories.map(({ events }) => events);
    // disputeLifecycle: evidence, then lost, then lost again (a re-sync that fires nothing).
    expect(seen).toContainEqual([
      'dispute.created needs_response dispute',
      'dispute.evidence_submitted under_review dispute',
      'dispute.updated under_review dispute',
      'dispute.closed lost dispute',
    ]);
    // inquiryEscalated: created again for the chargeback, then accepted by the merchant.
    expect(seen).toContainEqual([
      'dispute.created needs_response inquiry',
      'dispute.created needs_response dispute',
      'dispute.closed accepted dispute',
    ]);
    // inquiryDropped: closed once, though dropped twice.
    expect(seen).toContainEqual(['dispute.created needs_response inquiry', 'dispute.closed closed inquiry']);
  });
});
