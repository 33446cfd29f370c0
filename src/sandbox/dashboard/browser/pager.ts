// The two buttons under a list that lead to its neighbouring pages.
import { h } from './dom.js';
import { say } from './status.js';
import type { Refresh } from './types.js';

/** The names of the buttons of a list shown newest first. */
export const NEWEST_FIRST: [string, string] = ['Newer', 'Older'];

/** A move to a neighbouring page, or undefined where there is none (its button is disabled). */
type Move = (() => void) | undefined;

/** The two buttons under a list that lead to its neighbouring pages; none when it has one page. */
export function pager(
  label: string,
  id: string,
  names: [string, string],
  previous: Move,
  next: Move,
  refresh: Refresh,
): HTMLElement | false {
  if (!previous && !next) return false;
  const button = (text: string, go: Move) => {
    const b = h(
      'button',
      { type: 'button', class: 'secondary', id: `${id}-${text.toLowerCase()}` },
      text,
    ) as HTMLButtonElement;
    if (go) {
      b.addEventListener('click', () => {
        go();
        void refresh().catch((error: Error) => say(`The page could not be read: ${error.message}`));
      });
    } else {
      b.disabled = true;
    }
    return b;
  };
  return h('nav', { class: 'pager', 'aria-label': label }, button(names[0], previous), button(names[1], next));
}
