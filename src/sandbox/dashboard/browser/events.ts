// The outbox: each webhook event with its latest delivery attempts, its payload and its Resend.
import { h } from './dom.js';
import { badge, code, when } from './format.js';
import { NEWEST_FIRST, pager } from './pager.js';
import { resend } from './resend.js';
import { state } from './state.js';
import { table } from './table.js';
import type { Attempt, EventList, EventSummary, Refresh } from './types.js';

const NO_ATTEMPT =
  'No attempt yet: no endpoint has been sent it ' +
  '(add one with POST /sandbox/v1/webhook_endpoints, or run hsa-fsa-sandbox listen).';

const MORE_ATTEMPTS = 'Older attempts are in the log: GET /sandbox/v1/webhook_deliveries.';

function attemptRow(attempt: Attempt): HTMLElement {
  const excerpt = attempt.response_excerpt;
  const answer = excerpt
    ? h(
        'span',
        {},
        excerpt.text === '' ? h('em', {}, 'empty body') : code(excerpt.text),
        excerpt.truncated ? ` … (${excerpt.body_bytes ?? 'over 1 MiB'} bytes)` : '',
      )
    : h('span', {}, attempt.error ?? 'no answer');
  const status =
    attempt.status === null
      ? badge('no answer', 'bad')
      : badge(String(attempt.status), attempt.status === 204 ? 'ok' : 'bad');
  return h(
    'tr',
    {},
    h('td', {}, when(attempt.attempted_at)),
    h('td', {}, attempt.url ?? `${attempt.endpoint_id} (removed)`),
    h('td', {}, status),
    h('td', { class: 'amount' }, `${attempt.latency_ms} ms`),
    h('td', { class: 'answer' }, answer),
  );
}

function eventView(event: EventSummary): HTMLElement {
  const titleId = `event-${event.id}-title`;
  const button = h(
    'button',
    { type: 'button', id: `resend-${event.id}`, 'aria-describedby': titleId },
    'Resend',
  ) as HTMLButtonElement;
  button.addEventListener('click', () => void resend(event, button));
  const attempts =
    event.attempts.length === 0
      ? h('p', { class: 'empty' }, event.delivered_at ? 'Delivered.' : NO_ATTEMPT)
      : table(
          `Delivery attempts of event ${event.id}`,
          ['When', 'Endpoint', 'Status', 'Latency', 'Answer'],
          event.attempts.map(attemptRow),
        );
  const delivered = event.delivered_at ? h('span', {}, 'delivered ', when(event.delivered_at)) : 'not delivered';
  return h(
    'article',
    { class: 'event', 'aria-labelledby': titleId },
    h('h3', { id: titleId }, code(event.event_type), ` · event ${event.id}`),
    h(
      'p',
      { class: 'hint' },
      'Queued ',
      when(event.created_at),
      ' · ',
      delivered,
      ' · ',
      code(String(event.payload.webhook_delivery_id)),
    ),
    attempts,
    event.more_attempts ? h('p', { class: 'hint' }, MORE_ATTEMPTS) : false,
    h('div', { class: 'actions' }, button),
    h(
      'details',
      { id: `payload-${event.id}` },
      h('summary', {}, 'Payload'),
      // Focusable, so that a keyboard can scroll a long payload.
      h(
        'pre',
        { tabindex: '0', role: 'group', 'aria-label': `Payload of event ${event.id}` },
        JSON.stringify(event.payload, null, 2),
      ),
    ),
  );
}

export function eventsView(list: EventList, refresh: Refresh): Node {
  if (list.events.length === 0) return h('p', { class: 'empty' }, 'No webhook event yet.');
  const befores = state.eventBefores;
  return h(
    'div',
    {},
    ...list.events.map(eventView),
    pager(
      'Pages of webhook events',
      'events',
      NEWEST_FIRST,
      befores.length > 1
        ? () => {
            befores.pop();
          }
        : undefined,
      list.next_before !== null
        ? () => {
            befores.push(list.next_before!);
          }
        : undefined,
      refresh,
    ),
  );
}
