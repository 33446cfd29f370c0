// The helper API's handlers (its /sandbox/v1/ routes) of webhook delivery (openapi/sandbox.yaml):
// endpoints per channel, the log of attempts, and redelivery of an event by hand.
import { MAX_ENDPOINTS, newEndpoint } from '../../../delivery/endpoints.js';
import { helperRefusal, notFound, quoted } from '../../../domain/errors.js';
import type { SandboxAddress } from '../../../domain/own-address.js';
import { attemptView } from './attempt-view.js';
import { redeliverEvent } from '../../../app/redeliver.js';
import type { Handlers, HelperOperations } from '../../operation-types.js';

/** `sandboxAddress`: where the sandbox listens, which no endpoint may point at. */
export function webhookHelperHandlers(sandboxAddress: () => SandboxAddress | undefined): Handlers<HelperOperations> {
  return {
    async createWebhookEndpoint(context, store) {
      const { url, event_types: eventTypes, secret, mode } = context.body;
      if ((await store.deliveries.endpoints(context.channel)).length >= MAX_ENDPOINTS) {
        throw helperRefusal(
          'InvalidRequest',
          `A channel has at most ${MAX_ENDPOINTS} webhook endpoints; remove one first.`,
        );
      }
      const endpoint = newEndpoint({
        id: `we_${context.ids.short()}`,
        channel: context.channel,
        url,
        now: context.now,
        sandbox: sandboxAddress(),
        ...(eventTypes ? { eventTypes } : {}),
        ...(secret !== undefined ? { secret } : {}),
        ...(mode ? { mode } : {}),
      });
      await store.deliveries.addEndpoint(endpoint);
      const { channel: _channel, ...view } = endpoint;
      return view;
    },

    async listWebhookEndpoints(context, store) {
      return {
        endpoints: (await store.deliveries.endpoints(context.channel)).map(({ channel: _channel, ...view }) => view),
      };
    },

    async deleteWebhookEndpoint(context, store) {
      const endpoint = (await store.deliveries.endpoints(context.channel)).find(
        (e) => e.id === context.path.endpoint_id,
      );
      if (!endpoint || !(await store.deliveries.removeEndpoint(context.channel, endpoint.id)))
        throw notFound(`No webhook endpoint ${quoted(context.path.endpoint_id)}.`);
      const { channel: _channel, ...view } = endpoint;
      return view;
    },

    async listWebhookDeliveries(context, store) {
      const { after, limit = 100 } = context.query as { after?: string; limit?: number };
      const { rows, hasMore } = await store.deliveries.attempts(context.channel, {
        after: after === undefined ? 0 : Number(after),
        limit,
      });
      const attempts = rows.map(attemptView);
      return { attempts, has_more: hasMore, next_after: hasMore ? attempts.at(-1)!.id : null };
    },

    redeliverEvent(context, store) {
      return redeliverEvent(store, context, context.path.event_id);
    },
  };
}
