// One read of every list the page shows, each section rebuilt only where it changed.
import { api } from './api.js';
import { disputesView } from './disputes.js';
import { element } from './dom.js';
import { eventsView } from './events.js';
import { sessionsView } from './sessions.js';
import { show } from './show.js';
import { state } from './state.js';
import { detailView } from './timeline.js';
import { tokensView } from './tokens.js';
import type { DisputeList, EventList, SessionList, Timeline, TokenList } from './types.js';

/** The lists' page size. */
const PAGE_SIZE = 10;

/** A query string of the values that are set. */
const query = (values: Record<string, string | number>) =>
  new URLSearchParams(
    Object.entries(values)
      .filter(([, v]) => v !== '')
      .map(([k, v]) => [k, String(v)]),
  ).toString();

/** Reads every list the page shows, and shows what changed. */
export async function refresh(): Promise<void> {
  const [sessions, tokens, disputes, events] = await Promise.all([
    api<SessionList>(`/payments/v1/payment_sessions?${query({ page: state.sessionsPage, page_size: PAGE_SIZE })}`),
    api<TokenList>(`/api/v1/payment_tokens?${query({ page: state.tokensPage, page_size: PAGE_SIZE })}`),
    api<DisputeList>(`/v1/disputes?${query({ limit: PAGE_SIZE, cursor: state.disputeCursors.at(-1)! })}`),
    api<EventList>(`/sandbox/v1/webhook_events?${query({ limit: PAGE_SIZE, before: state.eventBefores.at(-1)! })}`),
  ]);
  const selected = sessions.payment_sessions.find((session) => session.id === state.selected);
  const timelinePath = `/sandbox/v1/payment_sessions/${encodeURIComponent(state.selected)}/timeline`;
  const timeline = selected
    ? await api<Timeline>(`${timelinePath}?${query({ after: state.timelineAfters.at(-1)! })}`)
    : undefined;
  show('sessions', sessions, () => sessionsView(sessions, refresh));
  element('detail-section').hidden = !selected;
  // A pager's buttons depend on the cursors too.
  if (selected && timeline) {
    show('detail', [selected, timeline, state.timelineAfters.length], () => detailView(selected, timeline, refresh));
  }
  show('tokens', tokens, () => tokensView(tokens, refresh));
  show('disputes', [disputes, state.disputeCursors.length], () => disputesView(disputes, refresh));
  show('events', [events, state.eventBefores.length], () => eventsView(events, refresh));
  element('updated').textContent = `Updated ${new Date().toLocaleTimeString()}.`;
}
