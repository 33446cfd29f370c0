// The helper API's handlers (its /sandbox/v1/ routes) of webhook listeners (openapi/sandbox.yaml,
// Webhook listeners): register, list and remove the listeners of `hsa-fsa-sandbox listen`, hand
// each its due deliveries (a long poll), and record the attempts it reports, as the dispatcher
// records its own (delivery/record.ts).
import { newEndpoint } from '../../../delivery/endpoints.js';
import { listenerSecret } from '../../../delivery/listener-secret.js';
import { IDLE_EXPIRY_MS, LEASE_MS, type ClaimedDelivery, type WebhookListeners } from '../../../delivery/listeners.js';
import { type AttemptObserver, recordAttempt } from '../../../delivery/record.js';
import { eventObjectId } from '../../../domain/event-subject.js';
import { helperRefusal, notFound, quoted } from '../../../domain/errors.js';
import type { SandboxStore } from '../../../store/store.js';
import type { WebhookListener } from '../../../store/listeners.js';
import { AnswerLater, type Handlers, type HelperOperations } from '../../operation-types.js';
import { attemptView } from './attempt-view.js';

/** Listeners per channel that have not expired, apart from the channel's webhook endpoints. */
export const MAX_LISTENERS = 20;

const view = ({
  id,
  url,
  event_types: eventTypes,
  secret,
  created_at: createdAt,
  polled_at: polledAt,
}: WebhookListener) => ({
  id,
  forward_url: url,
  event_types: eventTypes,
  secret,
  created_at: createdAt,
  expires_at: new Date(polledAt + IDLE_EXPIRY_MS).toISOString(),
});

/**
 * The URL as WHATWG serializes it, so that its spellings share one secret; as given when it is no URL (newEndpoint
 * refuses it).
 */
function serialized(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

async function liveListener(
  store: SandboxStore,
  listeners: WebhookListeners,
  channel: string,
  id: string,
): Promise<WebhookListener> {
  const found = await store.listeners.liveOne(channel, id, listeners.cutoff());
  if (!found)
    throw notFound(
      `No webhook listener ${quoted(id)}: it was removed, or it expired after ${IDLE_EXPIRY_MS / 1000} s without ` +
        `asking for its deliveries.`,
    );
  return found;
}

/** Whether two listeners receive the same events: the same names, in any order (both normalized by newEndpoint). */
const sameEvents = (a: string[], b: string[]) => a.length === b.length && a.every((type) => b.includes(type));

/** A claimed delivery as its command line reads it: what to send, under which claim, and what to show of it. */
function deliveryView({ delivery, claimId, request }: ClaimedDelivery) {
  const envelope = JSON.parse(delivery.payload) as { webhook_delivery_id: string; event_type: string; data?: unknown };
  return {
    delivery_id: String(delivery.id),
    claim_id: claimId,
    event_id: String(delivery.outbox_id),
    webhook_delivery_id: envelope.webhook_delivery_id,
    event_type: envelope.event_type,
    object_id: eventObjectId(envelope.data) ?? null,
    attempt: delivery.attempts + 1,
    request_body: request.body,
    request_headers: request.headers,
  };
}

export function listenerHelperHandlers(
  listeners: WebhookListeners,
  onAttempt: AttemptObserver = () => {},
): Handlers<HelperOperations> {
  return {
    async createWebhookListener(context, store) {
      await listeners.removeExpired();
      const url = serialized(context.body.forward_url);
      // No own-address check: the sandbox never sends to this URL, which only the command line's machine resolves.
      const endpoint = newEndpoint({
        id: `wl_${context.ids.short()}`,
        channel: context.channel,
        url,
        now: context.now,
        secret: listenerSecret(await store.pageSecret.get(), context.channel, url),
        ...(context.body.event_types ? { eventTypes: context.body.event_types } : {}),
      });
      const live = await store.listeners.live(context.channel, listeners.cutoff());
      // A command line started again with the same key, URL and events (after a crash, a kill, a
      // lost connection) takes up its listener before it expires, with what was fired meanwhile;
      // not one another command line uses now, whose Ctrl-C would remove it from under this one.
      const same = live.find(
        (listener) =>
          listener.url === endpoint.url &&
          sameEvents(listener.event_types, endpoint.event_types) &&
          !listeners.inUse(listener),
      );
      if (same) {
        const now = listeners.now();
        await store.listeners.touch(same.id, now);
        listeners.registered(same.id, now);
        return view(await liveListener(store, listeners, context.channel, same.id));
      }
      if (live.length >= MAX_LISTENERS) {
        throw helperRefusal(
          'InvalidRequest',
          `A channel has at most ${MAX_LISTENERS} webhook listeners; ` +
            `stop one first (each expires ${IDLE_EXPIRY_MS / 1000} s after it last asked for its deliveries).`,
        );
      }
      const listener = { ...endpoint, polled_at: listeners.now() };
      await store.listeners.add(listener);
      listeners.registered(listener.id, listener.polled_at);
      return view(listener);
    },

    async listWebhookListeners(context, store) {
      return { listeners: (await store.listeners.live(context.channel, listeners.cutoff())).map(view) };
    },

    async deleteWebhookListener(context, store) {
      const listener = await liveListener(store, listeners, context.channel, context.path.listener_id);
      await store.deliveries.removeEndpoint(context.channel, listener.id);
      listeners.forget(listener.id);
      return view(listener);
    },

    async receiveListenerDeliveries(context, store) {
      const { channel } = context;
      const id = context.path.listener_id;
      // A listener that is gone answers 404 at once.
      await liveListener(store, listeners, channel, id);
      const deadline = performance.now() + (context.query.wait ?? 0) * 1000;
      const limit = context.query.limit;
      // Each claim is a write of its own: it marks the listener as asking, and leases what it answers.
      const claim = () =>
        store.write(async () => {
          const listener = await liveListener(store, listeners, channel, id);
          await store.listeners.touch(id, listeners.now());
          return listeners.closing ? [] : listeners.claim(listener, limit, context.ids);
        });
      return new AnswerLater(async (gone) => {
        // Waiting, the listener is in use; a client that goes away leaves it for a restart to take up.
        const ended = listeners.claimWaits(id);
        try {
          let claimed = await claim();
          while (claimed.length === 0 && !listeners.closing && !gone.aborted && performance.now() < deadline) {
            await listeners.nextChance(deadline - performance.now(), gone);
            if (gone.aborted || listeners.closing) break;
            // A read first: the claim writes only when there is work, or to answer 404 for a listener now gone.
            const worthClaiming = await store.read(async () => {
              const listener = await store.listeners.liveOne(channel, id, listeners.cutoff());
              return listener === undefined || (await listeners.hasDue(listener));
            });
            if (worthClaiming) claimed = await claim();
          }
          return { deliveries: claimed.map(deliveryView) };
        } finally {
          ended(gone.aborted);
        }
      });
    },

    async createListenerAttempt(context, store) {
      const listener = await liveListener(store, listeners, context.channel, context.path.listener_id);
      const { delivery_id: given, claim_id: claimId, status, latency_ms: latencyMs } = context.body;
      const { response_excerpt: response = null, error = null } = context.body;
      const deliveryId = Number(given);
      const refused = () =>
        helperRefusal(
          'InvalidState',
          `Listener ${listener.id} holds no delivery ${quoted(given)} ` +
            `under claim ${quoted(claimId)}: that claim was never made, its attempt was reported already, ` +
            `its ${LEASE_MS / 1000} s lease ran out ` +
            'and the delivery is due again (or claimed again, under another claim id), ' +
            'or its delivery was ended since (turning the drill off ends its added_later deliveries).',
        );
      // The claim is the database's: made through this sandbox or another of the same database.
      const held = await listeners.held(listener.id, deliveryId, claimId);
      if (!held) throw refused();
      await store.listeners.touch(listener.id, listeners.now());
      // Sent as it was reported: the claim's time is not kept, the report's is.
      const attemptedAt = await store.clock.now(listener.channel);
      const outcome = { status, response, error, latencyMs };
      const recorded = await recordAttempt(store, listener, { id: deliveryId, ...held }, attemptedAt, outcome);
      onAttempt(recorded ?? 'dropped');
      if (!recorded) throw refused();
      listeners.reported();
      return {
        attempt: attemptView((await store.deliveries.lastAttempt(deliveryId))!),
        next_attempt_at: await store.deliveries.dueAt(deliveryId),
      };
    },
  };
}
