// The list of disputes, read by cursor.
import { h } from './dom.js';
import { badge, code, dollars, when } from './format.js';
import { NEWEST_FIRST, pager } from './pager.js';
import { state } from './state.js';
import { table } from './table.js';
import type { DisputeList, Refresh } from './types.js';

const stateTone = (disputeState: string) =>
  ['won'].includes(disputeState) ? 'ok' : ['lost', 'accepted'].includes(disputeState) ? 'bad' : 'wait';

export function disputesView(list: DisputeList, refresh: Refresh): Node {
  if (list.data.length === 0) return h('p', { class: 'empty' }, 'No dispute yet.');
  const rows = list.data.map((dispute) =>
    h(
      'tr',
      {},
      h('td', {}, code(dispute.id)),
      h('td', {}, code(String(dispute.charge_id ?? '—'))),
      h('td', {}, badge(String(dispute.state), stateTone(String(dispute.state)))),
      h('td', {}, String(dispute.reason ?? '—')),
      h('td', { class: 'amount' }, dollars(dispute.amount)),
      h('td', {}, when(dispute.due_by)),
      h('td', {}, when(dispute.updated_at)),
    ),
  );
  const cursors = state.disputeCursors;
  return h(
    'div',
    {},
    table('Disputes', ['Dispute', 'Session', 'State', 'Reason', 'Amount', 'Due by', 'Updated'], rows),
    pager(
      'Pages of disputes',
      'disputes',
      NEWEST_FIRST,
      cursors.length > 1
        ? () => {
            cursors.pop();
          }
        : undefined,
      list.next_cursor
        ? () => {
            cursors.push(list.next_cursor!);
          }
        : undefined,
      refresh,
    ),
  );
}
