// The contract's dispute operations: the canonical record at /api/v1/disputes/{dispute_id}, and the
// alternative listing at /v1/disputes (by cursor), its retrieve, and accept.
import { acceptDispute, disputeRecord } from '../../domain/disputes.js';
import { quoted, refusalsOf } from '../../domain/errors.js';
import type { ContractOperations, Handlers } from '../operation-types.js';
import { disputeOf } from '../../app/lookups.js';
import { saveSessionAndQueueEvents } from '../../app/session-writes.js';

const refuseList = refusalsOf('listDisputes');
const DEFAULT_LIMIT = 30;
const MAX_LIMIT = 100;

/** The listing's undocumented query, as the sandbox reads it: `limit` (1 to 100) and the `cursor` it answered. */
function listQuery(raw: Readonly<Record<string, string | string[] | undefined>>): { before: number; limit: number } {
  const one = (name: string) => {
    const value = raw[name];
    if (Array.isArray(value)) throw refuseList('InvalidRequestParameter', `${name} must be given once.`);
    return value;
  };
  const limitText = one('limit');
  const limit = limitText === undefined ? DEFAULT_LIMIT : /^[0-9]{1,3}$/.test(limitText) ? Number(limitText) : NaN;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw refuseList('InvalidRequestParameter', `limit must be an integer from 1 to ${MAX_LIMIT}.`);
  const cursor = one('cursor');
  if (cursor === undefined || cursor === '') return { before: Number.MAX_SAFE_INTEGER, limit };
  const match = /^dc_(\d{1,15})$/.exec(cursor);
  if (!match)
    throw refuseList('InvalidRequestParameter', `cursor ${quoted(cursor)} is not a next_cursor this listing answered.`);
  return { before: Number(match[1]), limit };
}

export function disputeHandlers(): Handlers<ContractOperations> {
  return {
    async retrieveDispute(context, store) {
      return (await disputeOf(store, context.channel, context.path.dispute_id)).entry.dispute;
    },

    async listDisputes(context, store) {
      const { before, limit } = listQuery(context.rawQuery);
      const { rows, hasMore } = await store.disputes.page(context.channel, before, limit);
      const data = [];
      for (const row of rows) {
        const session = (await store.sessions.get(context.channel, row.session_id))!;
        data.push(disputeRecord(session.disputes.find((d) => d.dispute.dispute_id === row.dispute_id)!, session));
      }
      return { data, has_more: hasMore, next_cursor: hasMore ? `dc_${rows.at(-1)!.seq}` : null };
    },

    async retrieveDisputeRecord(context, store) {
      const { session, entry } = await disputeOf(store, context.channel, context.path.id);
      return disputeRecord(entry, session);
    },

    async acceptDispute(context, store) {
      const { session } = await disputeOf(store, context.channel, context.path.id);
      const { events } = acceptDispute(session, context.path.id, context.now);
      await saveSessionAndQueueEvents(store, context, session, events);
      // The response is not documented: the sandbox answers an object with no field (openapi/sandbox.yaml).
      return {};
    },
  };
}
