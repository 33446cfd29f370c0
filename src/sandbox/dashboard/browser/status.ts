// The page's one status line, which a screen reader announces (role="status").
import { element } from './dom.js';

export function say(text: string) {
  element('status').textContent = text;
}
