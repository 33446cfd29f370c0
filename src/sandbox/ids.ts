// Every id the sandbox mints comes from here, so that a test can make them predictable and no
// module picks its own format.
import { randomUUID } from 'node:crypto';

export interface IdSource {
  /** A UUID: payment sessions, disputes. */
  uuid(): string;
  /** A short opaque id, to follow a prefix: `cap_…`, `rf_…`, `ptok_…`, item ids. */
  short(): string;
}

export const randomIds: IdSource = {
  uuid: () => randomUUID(),
  short: () => randomUUID().replace(/-/g, '').slice(0, 20),
};

/** A webhook delivery id: `dlv_` and 32 hex digits, fixed when the event is queued. */
export const deliveryId = (ids: IdSource) => `dlv_${ids.uuid().replace(/-/g, '')}`;

/** A listener's claim of one delivery: `lc_` and a short id, new on every claim, which its report names. */
export const listenerClaimId = (ids: IdSource) => `lc_${ids.short()}`;
