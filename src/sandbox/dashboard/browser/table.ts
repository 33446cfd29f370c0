// A list's table, with its caption for screen readers.
import { h } from './dom.js';

export function table(caption: string, head: string[], rows: HTMLElement[]): HTMLElement {
  // Focusable, so that a keyboard can scroll a table wider than the screen.
  return h(
    'div',
    { class: 'scroll', role: 'group', 'aria-label': caption, tabindex: '0' },
    h(
      'table',
      {},
      h('caption', { class: 'visually-hidden' }, caption),
      h('thead', {}, h('tr', {}, ...head.map((name) => h('th', { scope: 'col' }, name)))),
      h('tbody', {}, ...rows),
    ),
  );
}
