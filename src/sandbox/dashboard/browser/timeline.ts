// The selected session: its facts and its timeline, each step with the webhook it fired.
import { h, type Child } from './dom.js';
import { badge, code, dollars, when } from './format.js';
import { pager } from './pager.js';
import { refunded, statusTone } from './sessions.js';
import { state } from './state.js';
import type { Refresh, SessionItem, Timeline, TimelineEntry } from './types.js';

const STEPS: Record<string, string> = {
  created: 'Created',
  refunded: 'Refunded',
  checkout_completed: 'Checkout completed, awaiting review',
  checkout_ineligible: 'Checkout ended: customer ineligible',
  authorized: 'Authorized',
  captured: 'Captured',
  rejected: 'Rejected',
  canceled: 'Canceled',
  voided: 'Voided',
  expired: 'Hold expired',
  token_issued: 'Payment token issued',
  dispute_opened: 'Dispute opened',
  dispute_updated: 'Dispute updated',
  dispute_evidence_submitted: 'Dispute evidence submitted',
  dispute_closed: 'Dispute closed',
  event: 'Event',
};

function entryView(entry: TimelineEntry): HTMLElement {
  // The state the event reported, where the step's name does not already say it.
  const state = entry.state && (entry.step.startsWith('dispute_') || entry.step === 'event') ? `(${entry.state})` : '';
  const what = [STEPS[entry.step] ?? entry.step, entry.amount !== null ? dollars(entry.amount) : '', state]
    .filter(Boolean)
    .join(' ');
  const webhook = entry.webhook
    ? h(
        'span',
        { class: 'fired' },
        'fired ',
        code(entry.webhook.event_type),
        ` · event ${entry.webhook.event_id} · `,
        entry.webhook.delivered_at ? badge('delivered', 'ok') : badge('not delivered', 'wait'),
      )
    : h('span', { class: 'fired' }, 'no webhook');
  return h(
    'li',
    { class: 'step' },
    when(entry.at),
    ' ',
    h('strong', {}, what),
    ' ',
    entry.refund_id ? code(entry.refund_id) : '',
    entry.refund_id ? ' ' : '',
    webhook,
  );
}

export function detailView(session: SessionItem, timeline: Timeline, refresh: Refresh): Node {
  const facts: Array<[string, Child]> = [
    ['Status', badge(session.status, statusTone(session.status))],
    ['Summary', session.status_summary],
    ['Kind', session.kind ?? '—'],
    ['Total', dollars(session.total_amount)],
    ['Captured', dollars(session.capture_amount)],
    ['Refunded', dollars(refunded(session))],
  ];
  const afters = state.timelineAfters;
  return h(
    'div',
    {},
    h('p', {}, code(session.id ?? '')),
    h('dl', { class: 'facts' }, ...facts.flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)])),
    h('h3', { id: 'timeline-title' }, 'Timeline'),
    h('ol', { class: 'timeline', 'aria-labelledby': 'timeline-title' }, ...timeline.entries.map(entryView)),
    pager(
      'Pages of the timeline',
      'timeline',
      ['Earlier', 'Later'],
      afters.length > 1
        ? () => {
            afters.pop();
          }
        : undefined,
      timeline.next_after !== null
        ? () => {
            afters.push(timeline.next_after!);
          }
        : undefined,
      refresh,
    ),
  );
}
