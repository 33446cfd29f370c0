// Following the channel: a look at its revision four times a second, and a read of the lists only
// when it changed; a hidden tab does not look. Starting, stopping and forgetting the key.
import { api, type Failure } from './api.js';
import { element } from './dom.js';
import { refresh } from './refresh.js';
import { firstPages, KEY_ITEM, state } from './state.js';
import { say } from './status.js';
import type { Revision } from './types.js';

const POLL_MS = 250;

/** One look at the revision, and a read of the lists when it changed; then the next look, unless stopped. */
export async function poll(): Promise<void> {
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
  if (state.polling && document.visibilityState === 'visible') {
    state.timer = window.setTimeout(() => void poll(), POLL_MS);
  }
}

export function stop() {
  state.polling = false;
  window.clearTimeout(state.timer);
}

/** Follows the channel of the key in `state`, from the first page of every list. */
export function start() {
  stop();
  firstPages();
  Object.assign(state, { revision: '', selected: '', polling: true });
  element('status').dataset.state = 'starting';
  element('channel').hidden = false;
  void poll();
}

/** Stops, and drops the key and everything shown with it. */
export function forget() {
  stop();
  state.key = '';
  sessionStorage.removeItem(KEY_ITEM);
  element('channel').hidden = true;
  element('updated').textContent = '';
  for (const id of ['sessions', 'detail', 'tokens', 'disputes', 'events']) element(id).replaceChildren();
}
