// The list of payment sessions: one row each, a button that selects its timeline.
import { h } from './dom.js';
import { badge, code, dollars, when } from './format.js';
import { NEWEST_FIRST, pager } from './pager.js';
import { state } from './state.js';
import { table } from './table.js';
import type { Refresh, SessionItem, SessionList } from './types.js';

export const refunded = (session: SessionItem) =>
  (session.refunds ?? []).reduce((sum, refund) => sum + (refund.amount ?? 0), 0);

export const statusTone = (status: string) =>
  ['captured', 'authorized'].includes(status) ? 'ok' : ['pending', 'processing'].includes(status) ? 'wait' : 'plain';

const NO_SESSION = 'No payment session yet. Create one with POST /payments/v1/create_payment_session.';
const COLUMNS = ['Session', 'Kind', 'Status', 'Summary', 'Total', 'Captured', 'Refunded', 'Created'];

function sessionRow(session: SessionItem, refresh: Refresh): HTMLElement {
  const pressed = String(session.id === state.selected);
  const select = h(
    'button',
    { type: 'button', class: 'link', id: `select-${session.id}`, 'aria-pressed': pressed },
    code(session.id ?? ''),
  );
  select.addEventListener('click', () => {
    state.selected = session.id ?? '';
    state.timelineAfters = [''];
    state.shown.delete('sessions');
    void refresh();
  });
  return h(
    'tr',
    session.id === state.selected ? { class: 'selected' } : {},
    h('td', {}, select),
    h('td', {}, session.kind ?? '—'),
    h('td', {}, badge(session.status, statusTone(session.status))),
    h('td', {}, session.status_summary),
    h('td', { class: 'amount' }, dollars(session.total_amount)),
    h('td', { class: 'amount' }, dollars(session.capture_amount)),
    h('td', { class: 'amount' }, dollars(refunded(session))),
    h('td', {}, when(session.created_at)),
  );
}

export function sessionsView(list: SessionList, refresh: Refresh): Node {
  const sessions = list.payment_sessions;
  if (sessions.length === 0) {
    return h('p', { class: 'empty' }, NO_SESSION);
  }
  const rows = sessions.map((session) => sessionRow(session, refresh));
  const { current_page: page, last_page: last, count } = list.pagination;
  return h(
    'div',
    {},
    h('p', { class: 'hint' }, `${count} in all, newest first. Choose a session to see its timeline.`),
    table('Payment sessions', COLUMNS, rows),
    pager(
      'Pages of payment sessions',
      'sessions',
      NEWEST_FIRST,
      page > 1
        ? () => {
            state.sessionsPage = page - 1;
          }
        : undefined,
      page < last
        ? () => {
            state.sessionsPage = page + 1;
          }
        : undefined,
      refresh,
    ),
  );
}
