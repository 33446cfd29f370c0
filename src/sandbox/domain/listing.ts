// list_payment_sessions: what the query asks for, as a filter the store runs in SQL, and the
// pagination object. Pure: no I/O, and nothing here reads a session.
import { refusalsOf } from './errors.js';
import { MAX_SEARCH_LENGTH, sessionSearchRefusals } from './search-bounds.js';
import { FIRST_STORED_TIME, LAST_STORED_TIME } from './stored-time.js';
import type { SessionKind, SessionStatus } from './types.js';

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

/** An inclusive range of ISO 8601 UTC timestamps, as stored (`Date#toISOString`). */
export interface TimeRange {
  from?: string;
  to?: string;
}

export interface SessionListFilter {
  excludeStatuses: SessionStatus[];
  statuses?: SessionStatus[];
  kinds?: SessionKind[];
  paymentToken?: string;
  /** Matches the session id, the customer's email or name, case-insensitively. */
  search?: string;
  created?: TimeRange;
  captured?: TimeRange;
}

const refuse = refusalsOf('listPaymentSessions');

export const DEFAULT_PAGE_SIZE = 30;
/** The cap on page_size: the contract declares it (inferred), and validation refuses past it first. */
export const MAX_PAGE_SIZE = 1000;

/**
 * A date-time of the query in the stored form, so that it compares with stored times as text. An
 * offset can carry a time past either end of the stored range (9999-12-31T23:59:59-01:00): it is
 * held at the end, where it compares the same with every stored time.
 */
export function storedTime(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  // The schema's date-time format admits a few values Date cannot hold (a leap second).
  if (Number.isNaN(time))
    throw refuse('InvalidRequestParameter', `${name} is not a date-time the sandbox can compare: ${value}.`);
  return new Date(Math.min(Math.max(time, FIRST_STORED_TIME), LAST_STORED_TIME)).toISOString();
}

export function sessionListFilter(query: ListQuery): SessionListFilter {
  if (query.search !== undefined && [...query.search].length > MAX_SEARCH_LENGTH)
    throw sessionSearchRefusals.tooLong('search');
  const excluded: SessionStatus[] = [];
  if (query.filter_pending) excluded.push('pending');
  if (query.filter_voided) excluded.push('authorization_voided');
  const range = (from: string | undefined, to: string | undefined, names: [string, string]): TimeRange | undefined => {
    if (from === undefined && to === undefined) return undefined;
    const [start, end] = [storedTime(from, names[0]), storedTime(to, names[1])];
    return { ...(start !== undefined ? { from: start } : {}), ...(end !== undefined ? { to: end } : {}) };
  };
  const created = range(query.created_on_start, query.created_on_end, ['created_on_start', 'created_on_end']);
  const captured = range(query.captured_on_start, query.captured_on_end, ['captured_on_start', 'captured_on_end']);
  return {
    excludeStatuses: excluded,
    ...(query.status !== undefined ? { statuses: query.status } : {}),
    ...(query.kind !== undefined ? { kinds: query.kind } : {}),
    ...(query.payment_token !== undefined ? { paymentToken: query.payment_token } : {}),
    ...(query.search !== undefined ? { search: query.search } : {}),
    ...(created ? { created } : {}),
    ...(captured ? { captured } : {}),
  };
}

export interface PageRequest {
  page: number;
  pageSize: number;
}

export function pageRequest(query: { page?: number; page_size?: number }): PageRequest {
  const pageSize = query.page_size ?? DEFAULT_PAGE_SIZE;
  if (pageSize > MAX_PAGE_SIZE)
    throw refuse('InvalidRequestParameter', `page_size must be at most ${MAX_PAGE_SIZE} in the sandbox.`);
  return { page: query.page ?? 1, pageSize };
}

/** The rows to read for a page: SQL's LIMIT and OFFSET. */
export const pageWindow = ({ page, pageSize }: PageRequest) => ({ offset: (page - 1) * pageSize, limit: pageSize });

export function pagination({ page, pageSize }: PageRequest, count: number) {
  return { current_page: page, page_size: pageSize, count, last_page: Math.max(1, Math.ceil(count / pageSize)) };
}
