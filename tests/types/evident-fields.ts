// Type tests of the fields a partner reads from the project's own client, checked by
// `npm run typecheck` (tsc). Each resource's evident fields (id, kind, amounts, timestamps, state)
// have their own types: a field typed `unknown` is assignable to none of the annotations below, so
// this file stops compiling when one comes back. The fields the reference does not show are
// optional (and marked inferred in the contract), hence `| undefined`. Each line marked with an
// expected error must fail to compile, so none of these fields is `any` either.
import { createServiceClient, type components } from '../../src/client/index.js';

type Schemas = components['schemas'];
type Kind = Schemas['PaymentSessionKind'];

const client = createServiceClient({ environment: 'http://127.0.0.1:4010', apiKey: 'sandbox-dev-key' });

export async function retrievedSession(businessId: string) {
  const { data: session } = await client.GET('/payments/v1/payment_session/{business_id}', {
    params: { path: { business_id: businessId } },
  });
  if (!session) return undefined;
  const id: string | undefined = session.id;
  const kind: Kind | undefined = session.kind;
  const totalAmount: number | undefined = session.total_amount;
  const createdAt: string | undefined = session.created_at;
  const user: string | undefined = session.user_business_id;
  const status: Schemas['PaymentSessionStatus'] = session.status;
  const items: Schemas['SessionOrderItem'][] = session.order_items;
  // @ts-expect-error: the id is a string, not a number
  const notANumber: number | undefined = session.id;
  return { id, kind, totalAmount, createdAt, user, status, items, notANumber };
}

export async function listedSessions() {
  const { data } = await client.GET('/payments/v1/payment_sessions', { params: { query: { include_refunds: true } } });
  return data?.payment_sessions.map((item) => {
    const id: string | undefined = item.id;
    const kind: Kind | undefined = item.kind;
    const totalAmount: number | undefined = item.total_amount;
    const createdAt: string | undefined = item.created_at;
    const authorizedOn: string | undefined = item.authorized_on;
    const refundIds: Array<string | undefined> = (item.refunds ?? []).map((refund) => refund.refund_id);
    const refundAmounts: Array<number | undefined> = (item.refunds ?? []).map((refund) => refund.amount);
    const disputeIds: string[] = (item.disputes ?? []).map((dispute) => dispute.dispute_id);
    // @ts-expect-error: total_amount is a number
    const notAString: string | undefined = item.total_amount;
    return { id, kind, totalAmount, createdAt, authorizedOn, refundIds, refundAmounts, disputeIds, notAString };
  });
}

export async function canceledSession(businessId: string) {
  const { data } = await client.POST('/payments/v1/payment_session/{business_id}/cancel', {
    params: { path: { business_id: businessId } },
  });
  if (!data) return undefined;
  const id: string | undefined = data.id;
  const status: Schemas['PaymentSessionStatus'] | undefined = data.status;
  const kind: Kind | undefined = data.kind;
  return { id, status, kind };
}

export function disputeFields(dispute: Schemas['Dispute'], record: Schemas['DisputeRecord']) {
  // An open enum: its known values and any other string, never `unknown`.
  const state: string = dispute.state;
  const known: Schemas['DisputeState'] = 'needs_response';
  const id: string = dispute.dispute_id;
  const amount: number = dispute.amount;
  const recordState: string = record.state;
  const updatedAt: string = record.updated_at;
  // @ts-expect-error: a state is a string
  const notANumber: number = dispute.state;
  return { state, known, id, amount, recordState, updatedAt, notANumber };
}

export function tokenFields(token: Schemas['PaymentToken'], update: Schemas['PaymentTokenUpdateResponse']) {
  const card = token.payment_methods?.[0];
  const last4: string | undefined = card?.last4;
  const expMonth: number | undefined = card?.exp_month;
  const expYear: number | undefined = card?.exp_year;
  const createdAt: string | undefined = token.created_at;
  const nextAction: string = update.next_action;
  // @ts-expect-error: next_action is a string
  const notANumber: number = update.next_action;
  return { last4, expMonth, expYear, createdAt, nextAction, notANumber };
}
