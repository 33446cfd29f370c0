// The sandbox's own helper API (openapi/sandbox.yaml, under /sandbox/v1/): the customer, the
// review, the clock, disputes, the outbox, merchant features, faults, and (in their own modules)
// tokens, the catalog, webhook endpoints and webhook listeners. Typed by
// the helper document's operationIds, as the contract's handlers are by the contract's.
import { helperRefusal } from '../../../domain/errors.js';
import { review } from '../../../domain/sessions.js';
import { refundedAmount } from '../../../domain/refunds.js';
import { statusSummary } from '../../../domain/views.js';
import { LAST_STORED_TIME, LAST_STORED_TIME_TEXT } from '../../../domain/stored-time.js';
import type { WebhookListeners } from '../../../delivery/listeners.js';
import type { AttemptObserver } from '../../../delivery/record.js';
import type { SandboxAddress } from '../../../domain/own-address.js';
import type { Session } from '../../../domain/types.js';
import type { Handlers, HelperOperations } from '../../operation-types.js';
import { activityHelperHandlers } from './activity.js';
import { adminKeyHandlers } from './admin-keys.js';
import { catalogHelperHandlers } from './catalog.js';
import { finishCheckout } from '../../../app/customer-actions.js';
import { listenerHelperHandlers } from './listeners.js';
import { disputeHelperHandlers } from './disputes.js';
import { activeToken, sessionOf } from '../../../app/lookups.js';
import { saveSessionAndQueueEvents } from '../../../app/session-writes.js';
import { tokenHelperHandlers } from './tokens.js';
import { webhookHelperHandlers } from './webhooks.js';

function inspect(session: Session) {
  return {
    id: session.id,
    channel: session.channel,
    kind: session.kind,
    status: session.status,
    status_summary: statusSummary(session),
    created_at: session.created_at,
    total_amount: session.total_amount,
    ...(session.authorized_at ? { authorized_at: session.authorized_at } : {}),
    ...(session.capture_amount !== undefined ? { captured_amount: session.capture_amount } : {}),
    ...(session.capture_id ? { capture_id: session.capture_id } : {}),
    ...(session.void_id ? { void_id: session.void_id } : {}),
    refunded_amount: refundedAmount(session),
    issued_payment_token: session.issued_payment_token ?? null,
    disputes: session.disputes.map((d) => d.dispute),
  };
}

/** What the fault helper checks a request against: the contract's operations and their 400 codes. */
export interface ContractFacts {
  operationIds: ReadonlySet<string>;
  codes400: (operationId: string) => readonly string[];
}

/**
 * What the helpers know of the running sandbox: where it listens (undefined until it does), and its webhook listeners.
 */
export interface SandboxFacts {
  sandboxAddress: () => SandboxAddress | undefined;
  listeners: WebhookListeners;
  /** Told of each listener attempt's outcome as it is recorded (the metrics). */
  onAttempt?: AttemptObserver;
}

/** A code a later version of the service could add: the style of the contract's own (`SessionCaptured`). */
const UNLISTED_CODE = /^[A-Z][A-Za-z0-9]{0,63}$/;

export function sandboxHelperHandlers(contract: ContractFacts, sandbox: SandboxFacts): Handlers<HelperOperations> {
  return {
    async completeCheckout(context, store) {
      return finishCheckout(store, context, await sessionOf(store, context.channel, context.path.payment_session_id), {
        eligible: context.body?.eligible !== false,
      });
    },

    async reviewPaymentSession(context, store) {
      const session = await sessionOf(store, context.channel, context.path.payment_session_id);
      await saveSessionAndQueueEvents(store, context, session, review(session, context.body.decision, context.now));
      return { status: session.status };
    },

    async inspectPaymentSession(context, store) {
      return inspect(await sessionOf(store, context.channel, context.path.payment_session_id));
    },

    async retrieveClock(context, store) {
      return {
        now: await store.clock.now(context.channel),
        offset_seconds: await store.clock.offsetSeconds(context.channel),
      };
    },

    async advanceClock(context, store) {
      // Timestamps are compared as ISO 8601 text, which holds only up to year 9999.
      if (Date.parse(context.now) + context.body.seconds * 1000 > LAST_STORED_TIME) {
        throw helperRefusal(
          'InvalidRequest',
          `The sandbox clock cannot go past ${LAST_STORED_TIME_TEXT.slice(0, 19)}Z.`,
        );
      }
      await store.clock.advance(context.channel, context.body.seconds);
      return {
        now: await store.clock.now(context.channel),
        offset_seconds: await store.clock.offsetSeconds(context.channel),
      };
    },

    async listOutboxEvents(context, store) {
      const {
        event_type: eventType,
        after,
        limit = 100,
      } = context.query as { event_type?: string; after?: string; limit?: number };
      const { events, hasMore } = await store.outbox.list(context.channel, {
        ...(eventType !== undefined ? { eventType } : {}),
        ...(after !== undefined ? { after: Number(after) } : {}),
        limit,
      });
      return { events, has_more: hasMore, next_after: hasMore ? events.at(-1)!.id : null };
    },

    async retrieveFeatures(context, store) {
      return store.features.get(context.channel);
    },

    async updateFeatures(context, store) {
      const features = { ...(await store.features.get(context.channel)), ...context.body };
      await store.features.set(context.channel, features);
      return features;
    },

    async retrieveEvolutionDrill(context, store) {
      return store.drill.get(context.channel);
    },

    async updateEvolutionDrill(context, store) {
      const drill = { ...(await store.drill.get(context.channel)), ...context.body };
      await store.drill.set(context.channel, drill);
      return drill;
    },

    async createFault(context, store) {
      const { operation_id: operationId, status, error = 'ServerError', count = 1 } = context.body;
      if (!contract.operationIds.has(operationId))
        throw helperRefusal('InvalidRequest', `operation_id ${operationId} is not an operation of the contract.`);
      if (status !== 400 && context.body.error !== undefined)
        throw helperRefusal(
          'InvalidRequest',
          `error is for status=400 faults; a ${status} always answers ` +
            `${status === 500 ? 'ServerError' : 'NotImplemented'}.`,
        );
      const codes = contract.codes400(operationId);
      // Under the evolution drill, a later version may answer a code this contract does not list.
      const unlisted = error !== 'ServerError' && !codes.includes(error);
      if (
        unlisted &&
        !((await store.drill.get(context.channel)).enabled && status === 400 && UNLISTED_CODE.test(error))
      ) {
        throw helperRefusal(
          'InvalidRequest',
          `error ${error} is not a 400 code of ` +
            `${operationId}${codes.length > 0 ? `; its codes are ${codes.join(', ')}` : ', which declares none'}. ` +
            `A code the contract does not list (letters and digits, starting with a capital) is answered only ` +
            `under the evolution drill (PUT /sandbox/v1/evolution_drill).`,
        );
      }
      // What the calls will answer: a 400 the operation cannot give becomes the shared 500.
      const fault =
        status === 501
          ? { status, error: 'NotImplemented' }
          : status === 400 && (codes.includes(error) || unlisted)
            ? { status, error }
            : { status: 500 as const, error: 'ServerError' };
      await store.faults.arm(context.channel, operationId, fault, count);
      return { operation_id: operationId, ...fault, remaining: count };
    },

    async requireTokenAction(context, store) {
      const token = (await activeToken(store, context.channel, context.path.payment_token)).token;
      await store.tokens.setNextAction(context.channel, token, context.body.next_action);
      return { payment_token: token, next_action: context.body.next_action };
    },

    async resetChannel(context, store) {
      const deleted = await store.reset.channel(context.channel);
      await store.catalog.seed(context.channel, context.now, () => `prod_${context.ids.short()}`);
      return { channel: context.channel, ...deleted };
    },

    ...disputeHelperHandlers(),
    ...webhookHelperHandlers(sandbox.sandboxAddress),
    ...listenerHelperHandlers(sandbox.listeners, sandbox.onAttempt),
    ...tokenHelperHandlers(),
    ...catalogHelperHandlers(),
    ...activityHelperHandlers(),
    ...adminKeyHandlers(),
  } satisfies Handlers<HelperOperations>;
}
