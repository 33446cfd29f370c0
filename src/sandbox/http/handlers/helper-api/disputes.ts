// The helper API's handlers (its /sandbox/v1/ routes) of disputes (openapi/sandbox.yaml): open a
// chargeback or an inquiry on a captured session, and move it as the network and the processor
// would (sync, evidence, escalate, drop, resolve). Each saves the session with the events its move
// fires, in the request's transaction.
import {
  dropInquiry,
  escalateInquiry,
  openDispute,
  resolveDispute,
  submitEvidence,
  syncDispute,
  type DisputeOutcome,
} from '../../../domain/disputes.js';
import type { Dispute, DomainEvent, Session } from '../../../domain/types.js';
import type { SandboxStore } from '../../../store/store.js';
import type { Handlers, HelperOperations } from '../../operation-types.js';
import type { WriteContext } from '../../../app/event-queue.js';
import { disputeOf, sessionOf } from '../../../app/lookups.js';
import { saveSessionAndQueueEvents } from '../../../app/session-writes.js';

type Move = (session: Session, disputeId: string, now: string) => { dispute: Dispute; events: DomainEvent[] };

/** Applies a move to the dispute named by the path, and saves its session with the move's events. */
async function moved(
  store: SandboxStore,
  context: WriteContext & { path: { dispute_id: string } },
  move: Move,
): Promise<Dispute> {
  const { session } = await disputeOf(store, context.channel, context.path.dispute_id);
  const { dispute, events } = move(session, context.path.dispute_id, context.now);
  await saveSessionAndQueueEvents(store, context, session, events);
  return dispute;
}

export function disputeHelperHandlers(): Handlers<HelperOperations> {
  return {
    async openDispute(context, store) {
      const session = await sessionOf(store, context.channel, context.path.payment_session_id);
      const body = context.body ?? {};
      const { dispute, events } = openDispute(session, {
        id: context.ids.uuid(),
        now: context.now,
        alreadyClosed: body.already_closed === true,
        ...(body.kind !== undefined ? { kind: body.kind } : {}),
        ...(body.amount !== undefined ? { amount: body.amount } : {}),
        ...(body.reason !== undefined ? { reason: body.reason } : {}),
      });
      await store.disputes.register(context.channel, dispute.dispute_id, session.id);
      await saveSessionAndQueueEvents(store, context, session, events);
      return dispute;
    },

    resolveDispute(context, store) {
      return moved(store, context, (session, id, now) =>
        resolveDispute(session, id, context.body.outcome as DisputeOutcome, now),
      );
    },

    syncDispute(context, store) {
      return moved(store, context, (session, id, now) => syncDispute(session, id, context.body, now));
    },

    submitDisputeEvidence(context, store) {
      return moved(store, context, submitEvidence);
    },

    escalateDispute(context, store) {
      return moved(store, context, escalateInquiry);
    },

    dropDispute(context, store) {
      return moved(store, context, dropInquiry);
    },
  };
}
