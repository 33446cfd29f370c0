// A session as stored: its JSON document (read back in the current shape), and the fields lists
// filter and order on, kept as columns beside it so that SQL can use indexes instead of parsing,
// and its projection into the API's answers (session-projection.ts).
import { upgradeSession } from '../domain/session-shape.js';
import type { Session } from '../domain/types.js';
import { DETAIL_VIEW_VERSION, LIST_VIEW_VERSION } from '../domain/views.js';
import { renderDetailView, renderListView } from './session-projection.js';

/** A stored document, in the current shape whatever shape it was written in. */
export const readSession = (text: string): Session => upgradeSession(JSON.parse(text) as Record<string, unknown>);

export interface SessionColumns {
  id: string;
  channel: string;
  created_at: string;
  idempotency_key: string | null;
  kind: string;
  status: string;
  captured_at: string | null;
  /** Lower-cased, for the case-insensitive `search` of the list. */
  email_search: string | null;
  name_search: string | null;
  /** The customer's business id (lower-case already), which `search` matches too. */
  user_business_id: string | null;
  /** The token the session charges or issues (a session never does both). */
  payment_token: string | null;
  document: string;
  /** The session as a default list item, rendered once at write, so that a list page is joined, not built. */
  list_view: string;
  list_view_version: number;
  /** The session as retrieve answers it, rendered once at write, so that a retrieve reads one text. */
  detail_view: string;
  detail_view_version: number;
}

export function sessionColumns(session: Session): SessionColumns {
  return {
    id: session.id,
    channel: session.channel,
    created_at: session.created_at,
    idempotency_key: session.idempotency_key ?? null,
    kind: session.kind,
    status: session.status,
    captured_at: session.captured_at ?? null,
    email_search: session.customer_email?.toLowerCase() ?? null,
    name_search: session.customer_name?.toLowerCase() ?? null,
    user_business_id: session.user_business_id ?? null,
    payment_token: session.payment_token ?? session.issued_payment_token ?? null,
    document: JSON.stringify(session),
    list_view: renderListView(session),
    list_view_version: LIST_VIEW_VERSION,
    detail_view: renderDetailView(session),
    detail_view_version: DETAIL_VIEW_VERSION,
  };
}
