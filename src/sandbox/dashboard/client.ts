// The dashboard's script, as the browser runs it. `dashboardClient` is sent as its own source text
// (dashboard/page.ts): it closes over nothing of this module, and the types it names are erased.
// It keeps the key in the tab's sessionStorage and sends it in a header, never in a URL; it asks
// for the revision four times a second and reads the lists again only when it changed; it builds
// every element with textContent, so no value of the sandbox is ever read as HTML.
import type { components as Contract } from '../../../generated/schema.js';
import type { components as Helpers } from '../../../generated/sandbox.js';

type SessionList = Contract['schemas']['PaymentSessionList'];
type SessionItem = Contract['schemas']['PaymentSessionListItem'];
type TokenList = Contract['schemas']['PaymentTokenList'];
type DisputeList = Contract['schemas']['DisputeRecordList'];
type Timeline = Helpers['schemas']['SessionTimeline'];
type TimelineEntry = Helpers['schemas']['TimelineEntry'];
type EventList = Helpers['schemas']['WebhookEventList'];
type EventSummary = Helpers['schemas']['WebhookEventSummary'];
type Attempt = Helpers['schemas']['DeliveryAttempt'];
type Redelivery = Helpers['schemas']['Redelivery'];
type Revision = Helpers['schemas']['SandboxRevision'];

export function dashboardClient(): void {
  const KEY_ITEM = 'hsa-fsa-sandbox.dashboard.key';
  const POLL_MS = 250;
  const PAGE_SIZE = 10;
  const TOKEN_HEADER = 'x-dashboard-token';

  type Child = Node | string | null | undefined | false;
  type Attributes = Record<string, string | boolean | undefined>;
  interface Failure extends Error {
    status?: number;
  }

  const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
  const settings = JSON.parse(element('dashboard-settings').textContent ?? '{}') as { token: string };

  /** An element with text children only: nothing here is ever parsed as HTML. */
  function h(tag: string, attributes: Attributes = {}, ...children: Child[]): HTMLElement {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) {
      if (value === true) node.setAttribute(name, '');
      else if (typeof value === 'string') node.setAttribute(name, value);
    }
    for (const child of children) if (child !== null && child !== undefined && child !== false) node.append(child);
    return node;
  }

  const dollars = (cents: number | null | undefined) => (typeof cents === 'number' ? `$${(cents / 100).toFixed(2)}` : '—');
  const when = (iso: string | null | undefined) => (iso ? h('time', { datetime: iso }, iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')) : '—');
  const code = (text: string) => h('code', {}, text);
  const badge = (text: string, tone: 'ok' | 'bad' | 'wait' | 'plain') => h('span', { class: `badge ${tone}` }, text);

  const state = {
    key: sessionStorage.getItem(KEY_ITEM) ?? '',
    revision: '',
    sessionsPage: 1,
    tokensPage: 1,
    /** The cursors of the pages shown so far; the last is the current page's. */
    disputeCursors: [''],
    eventBefores: [''],
    timelineAfters: [''],
    selected: '',
    polling: false,
    timer: 0,
    /** What each section shows, as JSON: a section is rebuilt only when it changed. */
    shown: new Map<string, string>(),
  };

  async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
    const response = await fetch(path, { ...init, headers: { 'x-service-api-key': state.key, ...(init.headers as Record<string, string> | undefined) }, cache: 'no-store', redirect: 'error' });
    const body = (await response.json().catch(() => null)) as { message?: string } | null;
    if (!response.ok) throw Object.assign(new Error(body?.message ?? `HTTP ${response.status}`), { status: response.status }) as Failure;
    return body as T;
  }

  function say(text: string) {
    element('status').textContent = text;
  }

  /** Puts `content` in the section, unless it shows that already; keeps the focus, and the payloads open, where they were. */
  function show(section: string, data: unknown, build: () => Node) {
    const json = JSON.stringify(data);
    if (state.shown.get(section) === json) return;
    state.shown.set(section, json);
    const container = element(section);
    const focused = container.contains(document.activeElement) ? document.activeElement?.id : undefined;
    const open = Array.from(container.querySelectorAll('details[open]'), (details) => details.id);
    container.replaceChildren(build());
    for (const id of open) document.getElementById(id)?.setAttribute('open', '');
    if (focused) document.getElementById(focused)?.focus();
  }

  function table(caption: string, head: string[], rows: HTMLElement[]): HTMLElement {
    // Focusable, so that a keyboard can scroll a table wider than the screen.
    return h('div', { class: 'scroll', role: 'group', 'aria-label': caption, tabindex: '0' },
      h('table', {}, h('caption', { class: 'visually-hidden' }, caption),
        h('thead', {}, h('tr', {}, ...head.map((name) => h('th', { scope: 'col' }, name)))), h('tbody', {}, ...rows)));
  }

  /** The two buttons under a list that lead to its neighbouring pages; none when it has one page. */
  function pager(label: string, id: string, names: [string, string], previous: (() => void) | undefined, next: (() => void) | undefined): HTMLElement | false {
    if (!previous && !next) return false;
    const button = (text: string, go: (() => void) | undefined) => {
      const b = h('button', { type: 'button', class: 'secondary', id: `${id}-${text.toLowerCase()}` }, text) as HTMLButtonElement;
      if (go) b.addEventListener('click', () => { go(); void refresh().catch((error: Error) => say(`The page could not be read: ${error.message}`)); });
      else b.disabled = true;
      return b;
    };
    return h('nav', { class: 'pager', 'aria-label': label }, button(names[0], previous), button(names[1], next));
  }
  const NEWEST_FIRST: [string, string] = ['Newer', 'Older'];

  const refunded = (session: SessionItem) => (session.refunds ?? []).reduce((sum, refund) => sum + (refund.amount ?? 0), 0);
  const statusTone = (status: string) => (['captured', 'authorized'].includes(status) ? 'ok' : ['pending', 'processing'].includes(status) ? 'wait' : 'plain');

  function sessionsView(list: SessionList): Node {
    const sessions = list.payment_sessions;
    if (sessions.length === 0) return h('p', { class: 'empty' }, 'No payment session yet. Create one with POST /payments/v1/create_payment_session.');
    const rows = sessions.map((session) => {
      const select = h('button', { type: 'button', class: 'link', id: `select-${session.id}`, 'aria-pressed': String(session.id === state.selected) }, code(session.id ?? ''));
      select.addEventListener('click', () => {
        state.selected = session.id ?? '';
        state.timelineAfters = [''];
        state.shown.delete('sessions');
        void refresh();
      });
      return h('tr', session.id === state.selected ? { class: 'selected' } : {},
        h('td', {}, select), h('td', {}, session.kind ?? '—'), h('td', {}, badge(session.status, statusTone(session.status))), h('td', {}, session.status_summary),
        h('td', { class: 'amount' }, dollars(session.total_amount)), h('td', { class: 'amount' }, dollars(session.capture_amount)),
        h('td', { class: 'amount' }, dollars(refunded(session))), h('td', {}, when(session.created_at)));
    });
    const { current_page: page, last_page: last, count } = list.pagination;
    return h('div', {},
      h('p', { class: 'hint' }, `${count} in all, newest first. Choose a session to see its timeline.`),
      table('Payment sessions', ['Session', 'Kind', 'Status', 'Summary', 'Total', 'Captured', 'Refunded', 'Created'], rows),
      pager('Pages of payment sessions', 'sessions', NEWEST_FIRST, page > 1 ? () => { state.sessionsPage = page - 1; } : undefined, page < last ? () => { state.sessionsPage = page + 1; } : undefined));
  }

  const STEPS: Record<string, string> = {
    created: 'Created', refunded: 'Refunded', checkout_completed: 'Checkout completed, awaiting review', checkout_ineligible: 'Checkout ended: customer ineligible',
    authorized: 'Authorized', captured: 'Captured', rejected: 'Rejected', canceled: 'Canceled', voided: 'Voided', expired: 'Hold expired', token_issued: 'Payment token issued',
    dispute_opened: 'Dispute opened', dispute_updated: 'Dispute updated', dispute_evidence_submitted: 'Dispute evidence submitted', dispute_closed: 'Dispute closed', event: 'Event',
  };

  function entryView(entry: TimelineEntry): HTMLElement {
    // The state the event reported, where the step's name does not already say it.
    const state = entry.state && (entry.step.startsWith('dispute_') || entry.step === 'event') ? `(${entry.state})` : '';
    const what = [STEPS[entry.step] ?? entry.step, entry.amount !== null ? dollars(entry.amount) : '', state].filter(Boolean).join(' ');
    const webhook = entry.webhook
      ? h('span', { class: 'fired' }, 'fired ', code(entry.webhook.event_type), ` · event ${entry.webhook.event_id} · `,
        entry.webhook.delivered_at ? badge('delivered', 'ok') : badge('not delivered', 'wait'))
      : h('span', { class: 'fired' }, 'no webhook');
    return h('li', { class: 'step' }, when(entry.at), ' ', h('strong', {}, what), ' ', entry.refund_id ? code(entry.refund_id) : '', entry.refund_id ? ' ' : '', webhook);
  }

  function detailView(session: SessionItem, timeline: Timeline): Node {
    const facts: Array<[string, Child]> = [
      ['Status', badge(session.status, statusTone(session.status))], ['Summary', session.status_summary], ['Kind', session.kind ?? '—'],
      ['Total', dollars(session.total_amount)], ['Captured', dollars(session.capture_amount)], ['Refunded', dollars(refunded(session))],
    ];
    const afters = state.timelineAfters;
    return h('div', {},
      h('p', {}, code(session.id ?? '')),
      h('dl', { class: 'facts' }, ...facts.flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)])),
      h('h3', { id: 'timeline-title' }, 'Timeline'),
      h('ol', { class: 'timeline', 'aria-labelledby': 'timeline-title' }, ...timeline.entries.map(entryView)),
      pager('Pages of the timeline', 'timeline', ['Earlier', 'Later'],
        afters.length > 1 ? () => { afters.pop(); } : undefined,
        timeline.next_after !== null ? () => { afters.push(timeline.next_after!); } : undefined));
  }

  function tokensView(list: TokenList): Node {
    if (list.payment_tokens.length === 0) return h('p', { class: 'empty' }, 'No payment token yet.');
    const rows = list.payment_tokens.map((token) => {
      const card = token.payment_methods?.[0];
      return h('tr', {}, h('td', {}, code(token.payment_token)), h('td', {}, token.customer_email ?? '—'),
        h('td', {}, card ? `${String(card.brand ?? 'card')} ending ${card.last4 ?? '····'}, ${String(card.exp_month ?? '').padStart(2, '0')}/${card.exp_year ?? ''}` : '—'),
        h('td', {}, when(token.lmn_expires_at)), h('td', {}, when(token.created_at)));
    });
    const { current_page: page, last_page: last } = list.pagination ?? { current_page: 1, last_page: 1 };
    return h('div', {}, table('Payment tokens', ['Token', 'Customer', 'Card', 'Letter expires', 'Created'], rows),
      pager('Pages of payment tokens', 'tokens', NEWEST_FIRST, page > 1 ? () => { state.tokensPage = page - 1; } : undefined, page < last ? () => { state.tokensPage = page + 1; } : undefined));
  }

  function disputesView(list: DisputeList): Node {
    if (list.data.length === 0) return h('p', { class: 'empty' }, 'No dispute yet.');
    const rows = list.data.map((dispute) => h('tr', {}, h('td', {}, code(dispute.id)), h('td', {}, code(String(dispute.charge_id ?? '—'))),
      h('td', {}, badge(String(dispute.state), ['won'].includes(String(dispute.state)) ? 'ok' : ['lost', 'accepted'].includes(String(dispute.state)) ? 'bad' : 'wait')),
      h('td', {}, String(dispute.reason ?? '—')), h('td', { class: 'amount' }, dollars(dispute.amount)), h('td', {}, when(dispute.due_by)), h('td', {}, when(dispute.updated_at))));
    const cursors = state.disputeCursors;
    return h('div', {}, table('Disputes', ['Dispute', 'Session', 'State', 'Reason', 'Amount', 'Due by', 'Updated'], rows),
      pager('Pages of disputes', 'disputes', NEWEST_FIRST, cursors.length > 1 ? () => { cursors.pop(); } : undefined,
        list.next_cursor ? () => { cursors.push(list.next_cursor!); } : undefined));
  }

  function attemptRow(attempt: Attempt): HTMLElement {
    const excerpt = attempt.response_excerpt;
    const answer = excerpt
      ? h('span', {}, excerpt.text === '' ? h('em', {}, 'empty body') : code(excerpt.text), excerpt.truncated ? ` … (${excerpt.body_bytes ?? 'over 1 MiB'} bytes)` : '')
      : h('span', {}, attempt.error ?? 'no answer');
    const status = attempt.status === null ? badge('no answer', 'bad') : badge(String(attempt.status), attempt.status === 204 ? 'ok' : 'bad');
    return h('tr', {}, h('td', {}, when(attempt.attempted_at)), h('td', {}, attempt.url ?? `${attempt.endpoint_id} (removed)`), h('td', {}, status),
      h('td', { class: 'amount' }, `${attempt.latency_ms} ms`), h('td', { class: 'answer' }, answer));
  }

  /** Resends once per click: a second click while the first is on its way does nothing. Not disabled, which would take the focus away. */
  async function resend(event: EventSummary, button: HTMLButtonElement) {
    if (button.getAttribute('aria-busy') === 'true') return;
    button.setAttribute('aria-busy', 'true');
    try {
      const outcome = await api<Redelivery>(`/dashboard/outbox/${encodeURIComponent(event.id)}/redeliver`, { method: 'POST', headers: { [TOKEN_HEADER]: settings.token } });
      say(outcome.deliveries === 0
        ? `Event ${event.id} was not resent: no endpoint of this channel subscribes to ${event.event_type}.`
        : `Event ${event.id} queued again for ${outcome.deliveries} endpoint${outcome.deliveries === 1 ? '' : 's'}.`);
    } catch (error) {
      say(`Event ${event.id} was not resent: ${(error as Error).message}`);
    } finally {
      button.removeAttribute('aria-busy');
    }
  }

  function eventView(event: EventSummary): HTMLElement {
    const titleId = `event-${event.id}-title`;
    const button = h('button', { type: 'button', id: `resend-${event.id}`, 'aria-describedby': titleId }, 'Resend') as HTMLButtonElement;
    button.addEventListener('click', () => void resend(event, button));
    const attempts = event.attempts.length === 0
      ? h('p', { class: 'empty' }, event.delivered_at ? 'Delivered.' : 'No attempt yet: no endpoint has been sent it (add one with POST /sandbox/v1/webhook_endpoints, or run hsa-fsa-sandbox listen).')
      : table(`Delivery attempts of event ${event.id}`, ['When', 'Endpoint', 'Status', 'Latency', 'Answer'], event.attempts.map(attemptRow));
    return h('article', { class: 'event', 'aria-labelledby': titleId },
      h('h3', { id: titleId }, code(event.event_type), ` · event ${event.id}`),
      h('p', { class: 'hint' }, 'Queued ', when(event.created_at), ' · ', event.delivered_at ? h('span', {}, 'delivered ', when(event.delivered_at)) : 'not delivered', ' · ',
        code(String(event.payload.webhook_delivery_id))),
      attempts,
      event.more_attempts ? h('p', { class: 'hint' }, 'Older attempts are in the log: GET /sandbox/v1/webhook_deliveries.') : false,
      h('div', { class: 'actions' }, button),
      h('details', { id: `payload-${event.id}` }, h('summary', {}, 'Payload'),
        // Focusable, so that a keyboard can scroll a long payload.
        h('pre', { tabindex: '0', role: 'group', 'aria-label': `Payload of event ${event.id}` }, JSON.stringify(event.payload, null, 2))));
  }

  function eventsView(list: EventList): Node {
    if (list.events.length === 0) return h('p', { class: 'empty' }, 'No webhook event yet.');
    const befores = state.eventBefores;
    return h('div', {}, ...list.events.map(eventView),
      pager('Pages of webhook events', 'events', NEWEST_FIRST, befores.length > 1 ? () => { befores.pop(); } : undefined,
        list.next_before !== null ? () => { befores.push(list.next_before!); } : undefined));
  }

  /** Reads every list the page shows, and shows what changed. */
  async function refresh(): Promise<void> {
    const query = (values: Record<string, string | number>) => new URLSearchParams(Object.entries(values).filter(([, v]) => v !== '').map(([k, v]) => [k, String(v)])).toString();
    const [sessions, tokens, disputes, events] = await Promise.all([
      api<SessionList>(`/payments/v1/payment_sessions?${query({ page: state.sessionsPage, page_size: PAGE_SIZE })}`),
      api<TokenList>(`/api/v1/payment_tokens?${query({ page: state.tokensPage, page_size: PAGE_SIZE })}`),
      api<DisputeList>(`/v1/disputes?${query({ limit: PAGE_SIZE, cursor: state.disputeCursors.at(-1)! })}`),
      api<EventList>(`/sandbox/v1/webhook_events?${query({ limit: PAGE_SIZE, before: state.eventBefores.at(-1)! })}`),
    ]);
    const selected = sessions.payment_sessions.find((session) => session.id === state.selected);
    const timeline = selected
      ? await api<Timeline>(`/sandbox/v1/payment_sessions/${encodeURIComponent(state.selected)}/timeline?${query({ after: state.timelineAfters.at(-1)! })}`)
      : undefined;
    show('sessions', sessions, () => sessionsView(sessions));
    element('detail-section').hidden = !selected;
    // A pager's buttons depend on the cursors too.
    if (selected && timeline) show('detail', [selected, timeline, state.timelineAfters.length], () => detailView(selected, timeline));
    show('tokens', tokens, () => tokensView(tokens));
    show('disputes', [disputes, state.disputeCursors.length], () => disputesView(disputes));
    show('events', [events, state.eventBefores.length], () => eventsView(events));
    element('updated').textContent = `Updated ${new Date().toLocaleTimeString()}.`;
  }

  /** One look at the revision, and a read of the lists when it changed; then the next look, unless stopped. */
  async function poll(): Promise<void> {
    if (!state.polling) return;
    try {
      const { revision } = await api<Revision>('/sandbox/v1/revision');
      if (revision !== state.revision) {
        await refresh();
        state.revision = revision;
      }
      if (element('status').dataset.state !== 'live') {
        element('status').dataset.state = 'live';
        say('Showing the channel of this key. The lists follow its changes.');
      }
    } catch (error) {
      const status = (error as Failure).status;
      if (status === 401) {
        forget();
        say('The sandbox refused this key (401), so the page forgot it. Type another.');
        return;
      }
      if (status === 400) {
        firstPages();
        say(`A page the dashboard showed is gone (${(error as Error).message}); back to the first pages.`);
      } else {
        say(`The sandbox did not answer (${(error as Error).message}); trying again.`);
      }
      element('status').dataset.state = 'retrying';
    }
    if (state.polling && document.visibilityState === 'visible') state.timer = window.setTimeout(() => void poll(), POLL_MS);
  }

  /** Back to the first page of every list: a cursor the sandbox no longer knows (a channel reset) is refused. */
  function firstPages() {
    Object.assign(state, { sessionsPage: 1, tokensPage: 1, disputeCursors: [''], eventBefores: [''], timelineAfters: [''] });
    state.shown.clear();
  }

  function stop() {
    state.polling = false;
    window.clearTimeout(state.timer);
  }

  function start() {
    stop();
    firstPages();
    Object.assign(state, { revision: '', selected: '', polling: true });
    element('status').dataset.state = 'starting';
    element('channel').hidden = false;
    void poll();
  }

  element('key-form').addEventListener('submit', (submitted) => {
    submitted.preventDefault();
    const key = element<HTMLInputElement>('api-key').value.trim();
    if (key === '') {
      say('Type an API key first.');
      return;
    }
    state.key = key;
    sessionStorage.setItem(KEY_ITEM, key);
    start();
  });
  /** Stops, and drops the key and everything shown with it. */
  function forget() {
    stop();
    state.key = '';
    sessionStorage.removeItem(KEY_ITEM);
    element('channel').hidden = true;
    element('updated').textContent = '';
    for (const id of ['sessions', 'detail', 'tokens', 'disputes', 'events']) element(id).replaceChildren();
  }
  element('forget').addEventListener('click', () => {
    forget();
    element<HTMLInputElement>('api-key').value = '';
    say('The key is forgotten. Type an API key to see its channel.');
  });
  // A hidden tab does not poll; it looks again as soon as it is shown.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && state.polling) {
      window.clearTimeout(state.timer);
      void poll();
    }
  });
  if (state.key !== '') {
    element<HTMLInputElement>('api-key').value = state.key;
    start();
  }
}
