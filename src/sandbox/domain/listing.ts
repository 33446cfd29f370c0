// list_payment_sessions: filters, search, date ranges, newest first, and pagination.
import type { Session, SessionKind, SessionStatus } from './types.js';

export interface ListQuery {
  page?: number;
  page_size?: number;
  filter_pending?: boolean;
  filter_voided?: boolean;
  search?: string;
  created_on_start?: string;
  created_on_end?: string;
  captured_on_start?: string;
  captured_on_end?: string;
  kind?: SessionKind[];
  status?: SessionStatus[];
  payment_token?: string;
}

export const DEFAULT_PAGE_SIZE = 30;

const within = (at: string | undefined, start?: string, end?: string) => {
  if (start === undefined && end === undefined) return true;
  if (at === undefined) return false;
  const time = Date.parse(at);
  return (start === undefined || time >= Date.parse(start)) && (end === undefined || time <= Date.parse(end));
};

function matchesSearch(session: Session, search: string): boolean {
  const needle = search.toLowerCase();
  // "Matches session id, user business id, email or name"; the sandbox's user id is the email.
  return [session.id, session.customer_email, session.customer_name]
    .some((value) => value !== undefined && value.toLowerCase().includes(needle));
}

export function filterSessions(sessions: Session[], query: ListQuery): Session[] {
  return sessions
    .filter((s) => !(query.filter_pending && s.status === 'pending'))
    .filter((s) => !(query.filter_voided && s.status === 'authorization_voided'))
    .filter((s) => query.kind === undefined || query.kind.includes(s.kind))
    .filter((s) => query.status === undefined || query.status.includes(s.status))
    .filter((s) => query.payment_token === undefined || s.payment_token === query.payment_token || s.issued_payment_token === query.payment_token)
    .filter((s) => query.search === undefined || matchesSearch(s, query.search))
    .filter((s) => within(s.created_at, query.created_on_start, query.created_on_end))
    .filter((s) => within(s.captured_at, query.captured_on_start, query.captured_on_end))
    .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
}

export function paginate<T>(items: T[], page = 1, pageSize = DEFAULT_PAGE_SIZE) {
  const count = items.length;
  const lastPage = Math.max(1, Math.ceil(count / pageSize));
  return {
    items: items.slice((page - 1) * pageSize, page * pageSize),
    pagination: { current_page: page, page_size: pageSize, count, last_page: lastPage },
  };
}
