// Find it or refuse: each resource a request names by id, read from the caller's channel. Another
// channel's resource is not found either, so that a key never learns what other channels hold.
import type { StoredCatalogItem } from '../domain/catalog.js';
import { notFound, quoted, type Refusal } from '../domain/errors.js';
import type { ProvisionRequest } from '../domain/provisioning.js';
import type { PaymentTokenRecord, Session, SessionDispute } from '../domain/types.js';
import type { SandboxStore } from '../store/store.js';

/**
 * The session, or `missing()`: the helpers answer NotFound (the default), while each contract
 * operation answers its own "does not exist" code.
 */
export async function sessionOf(
  store: SandboxStore,
  channel: string,
  id: string,
  missing: () => Refusal = () => notFound(`No payment session ${id}.`),
): Promise<Session> {
  const session = await store.sessions.get(channel, id);
  if (!session) throw missing();
  return session;
}

/** The dispute and the session it belongs to, or NotFound. */
export async function disputeOf(
  store: SandboxStore,
  channel: string,
  disputeId: string,
): Promise<{ session: Session; entry: SessionDispute }> {
  const sessionId = await store.disputes.sessionOf(channel, disputeId);
  const session = sessionId ? await store.sessions.get(channel, sessionId) : undefined;
  const entry = session?.disputes.find((d) => d.dispute.dispute_id === disputeId);
  if (!session || !entry) throw notFound(`No dispute ${quoted(disputeId)}.`);
  return { session, entry };
}

/** A token the partner holds (issued, not deleted), or NotFound. */
export async function activeToken(store: SandboxStore, channel: string, token: string): Promise<PaymentTokenRecord> {
  const record = await store.tokens.get(channel, token);
  if (record?.status !== 'active') throw notFound(`No payment token ${quoted(token)}.`);
  return record;
}

/** A provision token request, or NotFound. */
export async function provisionRequestOf(store: SandboxStore, channel: string, id: string): Promise<ProvisionRequest> {
  const request = await store.provisionRequests.get(channel, id);
  if (!request) throw notFound(`No provision token request ${quoted(id)}.`);
  return request;
}

/** A catalog item of the contract's operations, or NotFound. */
export async function catalogItemOf(store: SandboxStore, channel: string, sku: string): Promise<StoredCatalogItem> {
  const item = await store.catalog.get(channel, sku);
  if (!item) throw notFound(`No catalog item with sku ${quoted(sku)}.`);
  return item;
}
