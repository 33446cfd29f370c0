// What the page remembers between two looks at the sandbox: the key (kept in the tab's
// sessionStorage), the pages shown, the selected session, the polling and what each section shows.

/** Where the tab keeps the key: sessionStorage, so that it dies with the tab. */
export const KEY_ITEM = 'hsa-fsa-sandbox.dashboard.key';

export const state = {
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

/** Back to the first page of every list: a cursor the sandbox no longer knows (a channel reset) is refused. */
export function firstPages() {
  Object.assign(state, {
    sessionsPage: 1,
    tokensPage: 1,
    disputeCursors: [''],
    eventBefores: [''],
    timelineAfters: [''],
  });
  state.shown.clear();
}
