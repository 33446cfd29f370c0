// Puts a section's content in place only when what it shows changed, so that a look that finds
// nothing new leaves the page, its focus and its open payloads alone.
import { element } from './dom.js';
import { state } from './state.js';

/**
 * Puts `content` in the section, unless it shows that already; keeps the focus, and the payloads
 * open, where they were.
 */
export function show(section: string, data: unknown, build: () => Node) {
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
