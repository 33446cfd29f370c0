// Webhook delivery to a receiver that never answers some requests (5 % by default), with the real
// 10 s attempt timeout: how many events are delivered, and when, while the sandbox clock is driven
// forward an hour at a time (the longest backoff, so every failed delivery is due again at each step).
// The events are 65 sessions' `processing` and `captured` and a dispute opened on each: 195 events,
// 130 resources. Run it with `npm run bench:hangs`; HANG_RATE, STEP_MS (real time per sandbox hour)
// and HOURS change the run.
import { startDispatcher } from '../src/sandbox/delivery/dispatcher.js';
import { seededRandom } from '../testkit/random.js';
import { testSandbox } from '../testkit/sandbox.js';
import { startReceiver } from '../testkit/webhook-receiver.js';
import { sqliteBackend } from '../src/sandbox/store/sqlite-backend.js';

const SECRET = 'whsec_bench_hangs';
const HOUR_SECONDS = 3600;

export interface HangsRun {
  hangRate: number;
  events: number;
  hungRequests: number;
  /** Per sandbox hour driven: events delivered by then. */
  deliveredByHour: number[];
  pendingAtEnd: number;
  failedAtEnd: number;
  /** When the last event arrived: real seconds since the first event, and sandbox hours driven; null when some never did. */
  allDeliveredAfter: { realSeconds: number; sandboxHours: number } | null;
  /** Deliveries of one resource that arrived before an earlier event of the same resource. */
  orderViolations: number;
}

export async function benchHangs({
  hangRate = Number(process.env.HANG_RATE ?? 0.05),
  stepMs = Number(process.env.STEP_MS ?? 1000),
  hours = Number(process.env.HOURS ?? 100),
  sessions = 65,
} = {}): Promise<HangsRun> {
  const s = testSandbox();
  const random = seededRandom(7);
  let hungRequests = 0;
  const receiver = await startReceiver({
    secret: SECRET,
    answer: () => {
      if (random() >= hangRate) return 'ok';
      hungRequests++;
      return 'hang';
    },
  });
  const dispatcher = startDispatcher(sqliteBackend(s.store));
  try {
    await s.post('/sandbox/v1/webhook_endpoints', { url: receiver.url, secret: SECRET });
    const startedAt = Date.now();
    for (let i = 0; i < sessions; i++) {
      const id = await s.capturedOneTime();
      await s.post(`/sandbox/v1/payment_sessions/${id}/disputes`, {});
    }
    const outbox = await s.outbox();
    const events = outbox.length;
    const unique = () => new Set(receiver.accepted.map((d) => d.body.webhook_delivery_id as string)).size;
    const deliveredByHour: number[] = [];
    let allDeliveredAfter: HangsRun['allDeliveredAfter'] = null;
    for (let hour = 1; hour <= hours; hour++) {
      await new Promise((resolve) => setTimeout(resolve, stepMs));
      await s.post('/sandbox/v1/clock/advance', { seconds: HOUR_SECONDS });
      deliveredByHour.push(unique());
      if (unique() === events) {
        const lastArrival = Math.max(...receiver.accepted.map((d) => d.arrivedAt));
        allDeliveredAfter = { realSeconds: Math.round((lastArrival - startedAt) / 100) / 10, sandboxHours: hour };
        break;
      }
    }
    const count = (status: string) =>
      s.db.prepare('SELECT COUNT(*) FROM deliveries WHERE status = ?').pluck().get(status) as number;
    // Order per resource: the outbox order of each resource's events, against the order of arrival.
    const position = new Map(outbox.map((event, index) => [event.payload.webhook_delivery_id as string, index]));
    const resourceOf = (data: Record<string, unknown>) => String(data.dispute_id ?? data.payment_id);
    const lastSeen = new Map<string, number>();
    let orderViolations = 0;
    for (const delivery of receiver.accepted) {
      const key = resourceOf(delivery.body.data as Record<string, unknown>);
      const at = position.get(delivery.body.webhook_delivery_id as string)!;
      if ((lastSeen.get(key) ?? -1) > at) orderViolations++;
      lastSeen.set(key, Math.max(at, lastSeen.get(key) ?? -1));
    }
    return {
      hangRate,
      events,
      hungRequests,
      deliveredByHour,
      pendingAtEnd: count('pending'),
      failedAtEnd: count('failed'),
      allDeliveredAfter,
      orderViolations,
    };
  } finally {
    await receiver.close();
    await dispatcher.stop();
    await s.close();
  }
}

export function hangsTable(run: HangsRun): string {
  const at = (hour: number) => run.deliveredByHour[Math.min(hour, run.deliveredByHour.length) - 1] ?? 0;
  return [
    `  ${run.events} events, ${(run.hangRate * 100).toFixed(0)} % of requests never answered (${run.hungRequests} hung), 10 s attempt timeout`,
    `  delivered after 1, 5, 25 sandbox hours: ${at(1)}, ${at(5)}, ${at(25)}; at the end: ${run.pendingAtEnd} pending, ${run.failedAtEnd} failed`,
    run.allDeliveredAfter
      ? `  every event delivered after ${run.allDeliveredAfter.realSeconds} s of real time (${run.allDeliveredAfter.sandboxHours} sandbox hours driven)`
      : `  not every event delivered after ${run.deliveredByHour.length} sandbox hours`,
    `  arrivals before an earlier event of the same resource: ${run.orderViolations}`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(hangsTable(await benchHangs()));
